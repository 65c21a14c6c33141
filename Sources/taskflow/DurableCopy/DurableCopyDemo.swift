import DashboardKit
import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowSupport

/// `taskflow demo durable-copy`: durable flows (DESIGN §8) copying albums of photos into a
/// library, one write flow per album, each file a step whose revert is journaled in the store
/// before the copy starts. Cancel a copy (`c`) and it rolls back; kill taskflow (`kill -9`)
/// mid-copy and start the demo again, and the recovery rolls the interrupted copy back — on
/// screen, as `Recovering #N Copy album-2` — before the albums still missing are copied. An
/// album is in the library whole, or not at all.
///
/// The folder is `durable-copy/` beside the store (`source/`, its sample albums, and
/// `library/`); with a PostgreSQL store, in taskflow's state folder.
struct DurableCopyDemo: RecoveringFlowSource {
    let manager = TaskFlowManager()
    let store: JobStore
    let flows: DurableFlows<Void>
    let folder: CopyFolder
    /// Seconds per simulated unit of work (1 = natural pace).
    let pace: Double
    private let startingUp = StartingUp()

    /// The recovery and first submissions under way, and what the recovery did.
    private final class StartingUp: Sendable {
        let task = Protected<Task<Void, Never>?>(nil)
        let note = Protected<String?>(nil)
    }

    /// The demo on the store at `path` (created, with its folder, if needed), in the folder
    /// ``folder(besideStore:)`` names.
    init(path: String, pace: Double) throws {
        store = try StoreOptions.open(at: path, access: .create, ifMissing: "", lease: .seconds(5))
        flows = DurableFlows(manager: manager, store: store)
        folder = try CopyFolder(Self.folder(besideStore: path))
        self.pace = pace
        // Each revert takes a moment, as the copies do, so that a rollback is seen unwinding.
        let moment = Duration.seconds(0.2 * pace)
        flows.register(RemoveCopiedFile.self, retry: .immediate(maxAttempts: 3)) { revert in
            try await Task.sleep(for: moment)
            try revert.run()
        }
        flows.register(RemoveAlbumFolder.self, retry: .immediate(maxAttempts: 3)) { revert in
            try await Task.sleep(for: moment)
            try revert.run()
        }
    }

    /// `durable-copy/` beside the store file; in the state folder for a database.
    static func folder(besideStore path: String) -> URL {
        let parent = StoreOptions.isPostgresURL(path) ? StoreOptions.stateDirectory : (path as NSString).deletingLastPathComponent
        return URL(fileURLWithPath: parent.isEmpty ? "." : parent).appending(path: "durable-copy")
    }

    var name: String { "Durable copy" }

    func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }

    func snapshot() -> ManagerSnapshot { manager.snapshot() }

    var recoveryNote: String? { startingUp.note.withLock { $0 } }

    /// Recovers first — the dashboard is listening, so the recovering flows unwind on screen —
    /// then submits a copy of each album the library lacks.
    @MainActor
    func start() -> AsyncStream<FlowHandle> {
        let (handles, continuation) = AsyncStream.makeStream(of: FlowHandle.self)
        let task = Task { @MainActor in
            defer { continuation.finish() }
            do {
                let recovered = try await flows.recover()
                startingUp.note.withLock { $0 = Self.note(recovered) }
            } catch {
                // Without a recovery, new flows could take ids the journal holds: none start.
                startingUp.note.withLock { $0 = "recovery failed: \(error)".escapingControlCharacters }
                return
            }
            for album in (try? folder.albumsToCopy()) ?? [] { continuation.yield(FlowHandle(copy(album))) }
        }
        startingUp.task.withLock { $0 = task }
        return handles
    }

    @MainActor
    func flowsDueAtStartSubmitted() async {
        await startingUp.task.withLock { $0 }?.value
    }

    /// `recovered 2 interrupted flows`, `… 1 incomplete` when a revert kept failing, or
    /// `nothing to recover`.
    private static func note(_ recovered: [RecoveredFlow]) -> String {
        guard !recovered.isEmpty else { return "nothing to recover" }
        let incomplete = recovered.filter { !$0.isComplete }.count
        let flows = recovered.count == 1 ? "flow" : "flows"
        return "recovered \(recovered.count) interrupted \(flows)" + (incomplete > 0 ? ", \(incomplete) rollback incomplete" : "")
    }

    /// Copies `album` into the library: its folder, then each photo, each step's revert
    /// journaled before it runs.
    private func copy(_ album: String) -> TaskFlow<Void> {
        let (folder, pace) = (folder, pace)
        return flows.execute(title: "Copy \(album)", access: .write) { flow in
            let target = folder.library.appending(path: album)
            try await flow.task(title: "Make library/\(album)", revert: RemoveAlbumFolder(path: target.path)) { _ in
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
            }
            for photo in try folder.photos(in: album) {
                let copy = target.appending(path: photo)
                try await flow.task(title: "Copy \(photo)", revert: RemoveCopiedFile(path: copy.path)) { step in
                    try await Self.work(step, seconds: 0.8 * pace)
                    try FileManager.default.copyItem(at: folder.source.appending(path: "\(album)/\(photo)"), to: copy)
                }
            }
        }
    }

    /// A step's `seconds`, in five slices with progress after each; stops between slices once
    /// the flow is cancelled, before the step copied anything.
    private static func work(_ step: TaskContext<Void>, seconds: Double) async throws {
        for slice in 1...5 {
            if step.isCancelled { throw CancellationError() }
            try await Task.sleep(for: .seconds(seconds / 5))
            step.progress(Double(slice) / 5)
        }
    }
}
