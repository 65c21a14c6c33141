import Foundation
import TaskFlow

/// Lists a job store for the stored jobs view and steers it. The store is shared with other
/// processes, so it is listed rather than followed: every ``interval``, and at once after a key
/// changed it; each listing (or why it failed), with the source's switches as they stood, goes
/// to `took` on the main actor. The source's own changes (this process's) go to `note` as log
/// lines, its runs to `ran`. Its tasks run until ``stop()``.
@MainActor
final class StorePoller {
    /// How often the store is listed: other processes change it too, and only a listing shows
    /// their changes.
    static let interval = Duration.milliseconds(500)
    /// How many jobs a listing brings: more than a screen shows, few enough to list twice a
    /// second whatever the store holds.
    static let limit = 1_000

    /// What one listing found, or why it failed, with the source's switches and when it was made.
    typealias Took = @MainActor (Result<StoreListing, any Error>, [StoreSwitch], Date) -> Void

    private let source: any JobStoreSource
    /// Wakes the listing loop early.
    private let relist: AsyncStream<Void>.Continuation
    private var tasks: [Task<Void, Never>] = []

    /// Starts listing `source` at once and every ``interval``, and following its changes and runs.
    init(
        _ source: any JobStoreSource, took: @escaping Took, note: @escaping @MainActor (LogLine) -> Void,
        ran: @escaping @MainActor (StoredJobRun) -> Void
    ) {
        self.source = source
        let (wakes, relist) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
        self.relist = relist
        let changes = source.changeLog()
        let runs = source.runs()
        tasks.append(Task {
            for await line in changes { note(line) }
        })
        tasks.append(Task {
            for await run in runs { ran(run) }
        })
        tasks.append(Task {
            let ticks = Task {
                while !Task.isCancelled {
                    relist.yield()
                    try? await Task.sleep(for: Self.interval)
                }
            }
            defer { ticks.cancel() }
            for await _ in wakes {
                let listing: Result<StoreListing, any Error>
                do {
                    listing = .success(try await source.listing(limit: Self.limit))
                } catch {
                    listing = .failure(error)
                }
                took(listing, source.switches, Date())
            }
        })
    }

    /// Runs a change of the store off the main actor, then lists it again at once; a failure
    /// goes to `failed` as "`what` failed: why".
    func steer(_ what: String, failed: @escaping @MainActor (String) -> Void, _ change: @escaping @Sendable (any JobStoreSource) async throws -> Void) {
        tasks.append(Task { [source, relist] in
            do {
                try await change(source)
            } catch {
                failed("\(what) failed: \(error)")
            }
            relist.yield()
        })
    }

    /// Tells the store conditions changed (parked jobs run again), and lists it again.
    func wakeParkedJobs() {
        source.conditionsChanged()
        relist.yield()
    }

    /// Flips the source's switch of `key`, and lists the store again.
    func flip(_ key: Character) {
        (source as? any SwitchedJobStoreSource)?.flip(key)
        relist.yield()
    }

    /// Stops listing and following the store.
    func stop() {
        for task in tasks { task.cancel() }
        tasks.removeAll()
        relist.finish()
    }
}
