import Testing
import TaskFlow
import TaskFlowTestSupport

/// The managed state: snapshots for readers, updates with automatic reverts for writers.
@Suite struct StateTests {
    struct Library: Sendable, Equatable {
        var books: [String] = []
    }

    @Test func aReadFlowSeesItsSnapshotWhileAWriterChangesTheStateAfterwards() async throws {
        let manager = TaskFlowManager(state: Library(books: ["Dune"]))
        let (readerHolds, readerMayLook) = (Gate(), Gate())
        let seen = Recorder<[String]>()
        let reader = manager.execute(title: "reader", access: .read) { flow in
            seen.record(flow.state.books)
            readerHolds.open()
            await readerMayLook.wait()
            seen.record(flow.state.books)
            try await flow.task(title: "look again", apply: { task in seen.record(task.state.books) })
        }
        await readerHolds.wait()
        let writer = manager.execute(title: "writer", access: .write) { flow in
            try await flow.update { $0.books.append("Emma") }
        }
        #expect(await eventually { writer.status.phase == .waiting })
        readerMayLook.open()
        try await reader.value
        try await writer.value
        #expect(seen.all == [["Dune"], ["Dune"], ["Dune"]])
        #expect(manager.state.books == ["Dune", "Emma"])

        let later = manager.execute(title: "later reader", access: .read) { flow in flow.state.books }
        #expect(try await later.value == ["Dune", "Emma"])
    }

    @Test func readFlowsSeeEveryChangeAWriterOrAnUndoMadeBeforeTheyStarted() async throws {
        let manager = TaskFlowManager(state: Library(books: ["Dune"]))
        func read() async throws -> [String] {
            try await manager.execute(title: "reader", access: .read) { flow in flow.state.books }.value
        }
        #expect(try await read() == ["Dune"])
        #expect(try await read() == ["Dune"], "a second reader at the same version")
        let writer = manager.execute(title: "writer", access: .write) { flow in
            try await flow.update { $0.books.append("Emma") }
        }
        try await writer.value
        #expect(try await read() == ["Dune", "Emma"])
        try await writer.undo()
        #expect(try await read() == ["Dune"], "the undo's restore, not the snapshot read before it")
    }

    @Test func readersAmongWritersEachSeeOneWholeCommittedState() async throws {
        struct Pair: Sendable { var left = 0, right = 0 }
        let manager = TaskFlowManager(state: Pair())
        let writers = (0..<200).map { _ in
            manager.execute(title: "writer", access: .write) { flow in
                try await flow.update { $0.left += 1; $0.right += 1 }
            }
        }
        let readers = (0..<2_000).map { _ in
            manager.execute(title: "reader", access: .read) { flow in flow.state }
        }
        for reader in readers {
            let seen = try await reader.value
            #expect(seen.left == seen.right && (0...200).contains(seen.left), "a state some writer committed")
        }
        for writer in writers { try await writer.value }
        let last = try await manager.execute(title: "last", access: .read) { flow in flow.state }.value
        #expect(last.left == 200 && last.right == 200)
    }

    @Test func readersSubmittedAfterAWriterEndedSeeItsChangeWhileTheNextWritersRun() async throws {
        let manager = TaskFlowManager(state: 0)
        // Reader batch i starts once writer i has ended, while writer i + 1 and the earlier
        // readers still run: each reader sees at least i + 1 increments, whichever snapshot the
        // store hands out then. (Not "submitted after writer i": the phase-fair lock lets every
        // reader waiting at a writer's release in together, even those behind a later writer.)
        var readers: [(writesBefore: Int, handle: TaskFlow<Int>)] = []
        for index in 0..<200 {
            try await manager.execute(title: "writer", access: .write) { flow in
                try await flow.update { $0 += 1 }
            }.value
            for _ in 0..<5 {
                readers.append((index + 1, manager.execute(title: "reader", access: .read) { flow in flow.state }))
            }
        }
        for (writesBefore, reader) in readers {
            let seen = try await reader.value
            #expect((writesBefore...200).contains(seen), "a stale snapshot, or a state no writer committed")
        }
    }

    @Test func updateIsRevertedAutomaticallyOnCancelAndFailure() async throws {
        let manager = TaskFlowManager(state: Library())
        let failing = manager.execute(title: "import", access: .write) { flow in
            try await flow.update { $0.books.append("Dune") }
            try await flow.update { $0.books.append("Emma") }
            #expect(flow.state.books == ["Dune", "Emma"], "a write flow sees its own updates")
            throw Boom()
        }
        await #expect(throws: Boom.self) { try await failing.value }
        #expect(manager.state == Library())

        let gate = Gate()
        let cancelled = manager.execute(title: "import again", access: .write) { flow in
            try await flow.update { $0.books.append("Dune") }
            try await flow.task(title: "wait", apply: { _ in await gate.wait() }, revert: { _, _ in })
            try await flow.update { $0.books.append("never") }
        }
        #expect(await eventually { manager.state.books == ["Dune"] })
        cancelled.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await cancelled.value }
        #expect(manager.state == Library())
    }

    @Test func updateInAReadFlowIsRefused() async throws {
        let manager = TaskFlowManager(state: Library())
        let flow = manager.execute(title: "sneaky reader", access: .read) { flow in
            try await flow.update { $0.books.append("Dune") }
        }
        await #expect(throws: FlowError.updateInReadFlow(flow: flow.info)) { try await flow.value }
        #expect(manager.state == Library())
    }

    @Test func anOutOfOrderUndoIsRefusedBeforeAnyRevertAndCanBeRetriedLater() async throws {
        let manager = TaskFlowManager(state: Library())
        let trace = Recorder<String>()
        let first = manager.execute(title: "add Dune") { flow in
            try await flow.task(title: "upload", apply: { _ in }, revert: { _, _ in trace.record("deleted upload") })
            try await flow.update { $0.books.append("Dune") }
        }
        try await first.value
        let second = manager.execute(title: "add Emma") { flow in try await flow.update { $0.books.append("Emma") } }
        try await second.value

        await #expect(throws: FlowError.stateChangedSince(flow: first.info)) { try await first.undo() }
        #expect(trace.all.isEmpty, "nothing of the refused undo ran")
        #expect(manager.state.books == ["Dune", "Emma"], "Emma survives")
        #expect(first.status.phase == .completed)

        try await second.undo()
        try await first.undo()
        #expect(trace.all == ["deleted upload"])
        #expect(manager.state == Library())
    }

    @Test func anUpdateMayReadTheStateItChanges() async throws {
        let manager = TaskFlowManager(state: Library(books: ["Dune"]))
        let flow = manager.execute(title: "copy") { flow in
            try await flow.update { $0.books = flow.state.books + flow.state.books }
        }
        try await flow.value
        #expect(manager.state.books == ["Dune", "Dune"])
    }

    @Test func concurrentUpdatesInOneFlowAreAllApplied() async throws {
        let manager = TaskFlowManager(state: 0)
        let flow = manager.execute(title: "count") { flow in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 1...50 {
                    group.addTask { try await flow.update { $0 += 1 } }
                }
                try await group.waitForAll()
            }
        }
        try await flow.value
        #expect(manager.state == 50, "no update lost to a concurrent one")
    }
}
