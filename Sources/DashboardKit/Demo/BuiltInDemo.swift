import TaskFlow

/// The demo `swift run taskflow` shows: read and write flows with foreground and background
/// steps, a group and a sequence, a flow that fails and rolls back, and a long one to cancel.
/// Everything runs through the real engine; only the work itself is simulated.
///
/// Timeline at pace 1 (all flows are submitted at once, so the lock queue is visible):
/// `Import books` (write, ~4 s) → `Count books` and `Build report` (reads, together) →
/// `Sync with server` (write, fails and unwinds) → `Migrate archive` (write, ~12 s: cancel it
/// with `c`) → `Audit log` (read).
package struct BuiltInDemo: FlowSource {
    /// The manager the demo's flows run on.
    package let manager: TaskFlowManager<Library>
    private let work: Work

    /// A demo at `pace` (1 = natural; 0.1 runs ten times faster).
    package init(pace: Double = 1) {
        manager = TaskFlowManager(state: Library())
        work = Work(pace: pace)
    }

    package var name: String { "built-in demo" }

    package func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }

    package func snapshot() -> ManagerSnapshot { manager.snapshot() }

    /// Submits all six flows at once.
    @MainActor
    package func start() -> AsyncStream<FlowHandle> {
        let desk = Desk()
        return .submitted([
            FlowHandle(importBooks(desk)),
            FlowHandle(countBooks()),
            FlowHandle(buildReport()),
            FlowHandle(syncWithServer(desk)),
            FlowHandle(migrateArchive(desk)),
            FlowHandle(auditLog()),
        ])
    }

    // MARK: - The flows

    private func importBooks(_ desk: Desk) -> TaskFlow<Void> {
        manager.execute(title: "Import books", access: .write) { [work] flow in
            try await flow.main(title: "Open import panel", apply: { desk.open("import") }, revert: { desk.close($0) })
            try await flow.task(title: "Download catalogue", apply: { task in
                try await task.main(title: "Show download badge", apply: { desk.open("badge") }, revert: { desk.close($0) })
                try await work.run(task, seconds: 1.2)
            }, revert: { _, _ in try await work.pause(0.3) })
            try await flow.update(title: "Add 3 books") { $0.books += ["Dune", "Solaris", "Neuromancer"] }
            try await flow.group(title: "Fetch covers") { group in
                for (index, seconds) in [0.9, 1.3, 0.7].enumerated() {
                    group.task(title: "cover \(index + 1)", apply: { try await work.run($0, seconds: seconds) },
                               revert: { _, _ in try await work.pause(0.2) })
                }
            }
            try await flow.sequence(title: "Rebuild index") { sequence in
                sequence.task(title: "tokenize", apply: { try await work.run($0, seconds: 0.5) }, revert: { _, _ in try await work.pause(0.2) })
                sequence.task(title: "write index", apply: { try await work.run($0, seconds: 0.5) }, revert: { _, _ in try await work.pause(0.2) })
            }
        }
    }

    private func countBooks() -> TaskFlow<Int> {
        manager.execute(title: "Count books", access: .read) { [work] flow in
            let shelves = try await flow.main(title: "Read shelf count", query: { 12 })
            try await flow.task(title: "Scan shelves", apply: { try await work.run($0, seconds: 1.5) })
            return shelves * flow.state.books.count
        }
    }

    private func buildReport() -> TaskFlow<Void> {
        manager.execute(title: "Build report", access: .read) { [work] flow in
            try await flow.task(title: "Gather statistics", apply: { try await work.run($0, seconds: 0.8) })
            try await flow.group(title: "Render") { group in
                group.task(title: "charts", apply: { try await work.run($0, seconds: 1.1) })
                group.task(title: "tables", apply: { try await work.run($0, seconds: 0.7) })
            }
        }
    }

    /// Fails on its last step: everything before unwinds, last first, slowly enough to watch.
    private func syncWithServer(_ desk: Desk) -> TaskFlow<Void> {
        manager.execute(title: "Sync with server", access: .write) { [work] flow in
            try await flow.main(title: "Lock editing", apply: { desk.open("sync") }, revert: { desk.close($0) })
            try await flow.task(title: "Upload changes", apply: { try await work.run($0, seconds: 1.0) },
                                revert: { _, _ in try await work.pause(0.5) })
            try await flow.update(title: "Mark synced") { $0.synced = true }
            try await flow.sequence(title: "Push") { sequence in
                sequence.task(title: "push metadata", apply: { try await work.run($0, seconds: 0.6) },
                              revert: { _, _ in try await work.pause(0.4) })
                sequence.task(title: "push changes", apply: { task in
                    try await work.run(task, seconds: 0.6, slices: 6)
                    throw ServerRejected()
                })
            }
        }
    }

    /// The long one: cancel it with `c` and watch the batches revert, last first.
    private func migrateArchive(_ desk: Desk) -> TaskFlow<Void> {
        manager.execute(title: "Migrate archive", access: .write) { [work] flow in
            try await flow.main(title: "Open migration panel", apply: { desk.open("migration") }, revert: { desk.close($0) })
            try await flow.sequence(title: "Copy batches") { sequence in
                for batch in 1...6 {
                    sequence.task(title: "batch \(batch)/6", apply: { try await work.run($0, seconds: 2) },
                                  revert: { _, _ in try await work.pause(0.3) })
                }
            }
            // A foreground switch rather than a state update: the catalogue itself is untouched, so
            // `Import books` stays undoable after the migration.
            try await flow.main(title: "Switch to new archive", apply: { desk.open("archive v2") }, revert: { desk.close($0) })
        }
    }

    private func auditLog() -> TaskFlow<Void> {
        manager.execute(title: "Audit log", access: .read) { [work] flow in
            _ = try await flow.main(title: "Read open panels", query: { 0 })
            try await flow.task(title: "Check entries", apply: { try await work.run($0, seconds: 1.5) })
        }
    }
}
