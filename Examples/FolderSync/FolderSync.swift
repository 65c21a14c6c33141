import Foundation
import TaskFlow

/// The example's work: a write flow that makes `library/` match `source/` one file per step,
/// a read flow that checks the library, and checksum jobs on a queue. Every step of the write
/// flow registers how to take it back, so a cancel (or an undo) leaves the folder as it was.
struct FolderSync: Sendable {
    let folder: SyncFolder
    /// How long each file's step takes.
    let pace: Duration
    /// Where deleted files are kept for the rollback: outside the folder, so that the folder
    /// itself holds nothing more after a rollback than before the sync.
    let kept = FileManager.default.temporaryDirectory.appending(path: "folder-sync-kept-\(UUID().uuidString.prefix(8))")

    /// Submits the flows and the jobs; they run as soon as the lock and the queue let them.
    func start(on manager: TaskFlowManager<Void>, checksums: JobQueue) {
        manager.execute(title: "Sync library", access: .write) { flow in try await sync(flow) }
        manager.execute(title: "Check library", access: .read) { flow in try await check(flow) }
        for name in (try? SyncFolder.files(in: folder.source).prefix(3)) ?? [] {
            checksums.add(Job(title: "Checksum \(name)") { _ in try await checksum(of: name) })
        }
    }

    /// Removes the kept copies: once the dashboard is gone, nothing can roll the sync back.
    func releaseKeptCopies() {
        try? FileManager.default.removeItem(at: kept)
    }

    /// Copies what `library/` lacks, then deletes what `source/` no longer has.
    private func sync(_ flow: FlowContext<Void>) async throws {
        let sources = try SyncFolder.files(in: folder.source), present = try SyncFolder.files(in: folder.library)
        for name in sources where !present.contains(name) {
            try await flow.task(title: "Copy \(name)") { step in
                try await work(step)
                try FileManager.default.copyItem(at: folder.source.appending(path: name), to: folder.library.appending(path: name))
            } revert: { _, _ in
                try FileManager.default.removeItem(at: folder.library.appending(path: name))
            }
        }
        for name in present where !sources.contains(name) {
            try await flow.task(title: "Delete \(name)") { step in
                try await work(step)
                return try keep(name)
            } revert: { _, copy in
                try FileManager.default.copyItem(at: copy, to: folder.library.appending(path: name))
            }
        }
    }

    /// Reads every file of the library, then adds the sizes up on the main thread.
    private func check(_ flow: FlowContext<Void>) async throws {
        var sizes: [Int] = []
        for name in try SyncFolder.files(in: folder.library) {
            let size = try await flow.task(title: "Read \(name)") { step in
                try await work(step, share: 0.5)
                return try Data(contentsOf: folder.library.appending(path: name)).count
            }
            sizes.append(size)
        }
        let total = sizes
        // A foreground step: it runs on the main thread, between the dashboard's frames.
        _ = try await flow.main(title: "Add up \(total.count) files") { total.reduce(0, +) }
    }

    /// Moves `name` out of the library into the kept copies; returns where it went.
    private func keep(_ name: String) throws -> URL {
        try FileManager.default.createDirectory(at: kept, withIntermediateDirectories: true)
        let copy = kept.appending(path: "\(UUID().uuidString)-\(name)")
        // Copied then removed rather than moved: the kept copies may be on another file system.
        try FileManager.default.copyItem(at: folder.library.appending(path: name), to: copy)
        try FileManager.default.removeItem(at: folder.library.appending(path: name))
        return copy
    }

    /// A source file's bytes added up, after the pace's time.
    private func checksum(of name: String) async throws -> Int {
        try await Task.sleep(for: pace)
        return try Data(contentsOf: folder.source.appending(path: name)).reduce(0) { $0 &+ Int($1) }
    }

    /// The step's share of the pace, in five slices with progress after each; stops between
    /// slices once the flow is cancelled, before the step changed anything.
    private func work(_ step: TaskContext<Void>, share: Double = 1) async throws {
        for slice in 1...5 {
            if step.isCancelled { throw CancellationError() }
            try await Task.sleep(for: pace * share / 5)
            step.progress(Double(slice) / 5)
        }
    }
}
