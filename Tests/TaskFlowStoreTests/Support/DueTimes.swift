import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// A job of its own kind that succeeds at once: submitted to make a worker look for work now.
struct Marker: StoredJob {
    static let kind = "marker"
}

extension JobStore {
    /// Registers ``Marker``'s executor.
    func registerMarker() {
        register(Marker.self, retry: .never) { _, _ in .success }
    }
}

/// Whether two dates the store wrote or computed are the same time: within a microsecond, which
/// is what PostgreSQL keeps, and Double arithmetic on dates loses far less.
func isSameTime(_ date: Date?, _ expected: Date) -> Bool {
    date.map { abs($0.timeIntervalSince(expected)) < 0.000_002 } ?? false
}

/// Checks that job `id`, due at `due` on `clock`, is passed by when a worker looks a
/// millisecond before and runs when one looks a millisecond after, the first time a worker
/// looks then. Needs ``registerMarker()`` and the store's workers on `clock`.
///
/// Nothing here counts sleepers. A millisecond before `due`, a ``Marker`` submitted rings the
/// doorbell, and the worker that runs it claimed in id order: had the job been due, it would
/// have been claimed first, so once the marker succeeded the job must not have started. Then
/// time moves to a millisecond after `due` — idle workers wake up to a millisecond after a job
/// falls due, and at least every poll interval — and the job must start, claimed at exactly
/// that time (the attempt's `claimedAt` is read from the store's clock with the claim's date).
func expectRunsWhenDue(
    _ id: StoredJobID, at due: ContinuousClock.Instant, store: JobStore, log: ChangeLog, clock: TestClock,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let before = starts(of: id, in: log).count
    clock.advance(to: due - .milliseconds(1))
    let marker = try await store.submit(Marker())
    #expect(await log.waitUntil { $0.contains(.succeeded(marker, kind: Marker.kind)) }, sourceLocation: sourceLocation)
    #expect(starts(of: id, in: log).count == before, "a millisecond early, the job waits", sourceLocation: sourceLocation)
    clock.advance(to: due + .milliseconds(1))
    #expect(
        await log.waitUntil { _ in starts(of: id, in: log).count == before + 1 },
        """
        not run; the job's events: \(log.events(of: id).map(\.name)); sleeps pending: \(clock.pendingSleeps); \
        store errors: \(log.events.filter { $0.name == "storeError" })
        """,
        sourceLocation: sourceLocation)
    #expect(
        starts(of: id, in: log).last?.claimedAt == due + .milliseconds(1), "claimed when a worker first looked after it fell due",
        sourceLocation: sourceLocation)
}

/// The attempts of job `id` that `log` saw start, in order.
func starts(of id: StoredJobID, in log: ChangeLog) -> [StoredJobAttempt] {
    log.events(of: id).compactMap { event in
        if case .started(_, _, let attempt) = event { return attempt }
        return nil
    }
}
