import Testing
import TaskFlow
import TaskFlowTestSupport

/// The read/write discipline as a user sees it: who runs together, who waits, in which order.
@Suite struct LockTests {
    /// A flow that enters the registrar, waits at `gate`, and leaves.
    @discardableResult
    func hold(_ manager: TaskFlowManager<Void>, _ title: String, _ access: FlowAccess,
              registrar: Registrar, gate: Gate, started: Recorder<String>? = nil) -> TaskFlow<Void> {
        manager.execute(title: title, access: access) { _ in
            registrar.enter(access.rawValue)
            started?.record(title)
            await gate.wait()
            registrar.leave(access.rawValue)
        }
    }

    @Test func readersRunTogetherAndWritersRunAlone() async throws {
        let manager = TaskFlowManager()
        let registrar = Registrar()
        let gate = Gate()
        let readers = (1...5).map { hold(manager, "reader \($0)", .read, registrar: registrar, gate: gate) }
        #expect(await eventually { registrar.maxReaders == 5 }, "all five readers hold the lock at once")
        let writer = hold(manager, "writer", .write, registrar: registrar, gate: gate)
        #expect(await eventually { writer.status.phase == .waiting })
        gate.open()
        for reader in readers { try await reader.value }
        try await writer.value
        #expect(registrar.violations.isEmpty)
    }

    @Test func readerArrivingBehindAWaitingWriterWaitsForIt() async throws {
        let manager = TaskFlowManager()
        let registrar = Registrar()
        let (readPhase, writePhase) = (Gate(), Gate())
        let started = Recorder<String>()
        let first = hold(manager, "R1", .read, registrar: registrar, gate: readPhase, started: started)
        #expect(await eventually { first.status.phase == .running })
        let writer = hold(manager, "W", .write, registrar: registrar, gate: writePhase, started: started)
        #expect(await eventually { writer.status.phase == .waiting })
        let late = hold(manager, "R2", .read, registrar: registrar, gate: readPhase, started: started)
        #expect(await eventually { late.status.phase == .waiting }, "a reader may not overtake a waiting writer")
        #expect(manager.snapshot().lock.queue.map(\.title) == ["W", "R2"])

        readPhase.open()
        #expect(await eventually { writer.status.phase == .running })
        #expect(late.status.phase == .waiting, "the reader waits for the whole write phase")
        writePhase.open()
        try await late.value
        #expect(started.all == ["R1", "W", "R2"])
        #expect(registrar.violations.isEmpty)
    }

    @Test func aLeavingWriterAdmitsEveryWaitingReaderAtOnce() async throws {
        let manager = TaskFlowManager()
        let registrar = Registrar()
        let (firstWrite, reads, secondWrite) = (Gate(), Gate(), Gate())
        let w1 = hold(manager, "W1", .write, registrar: registrar, gate: firstWrite)
        #expect(await eventually { w1.status.phase == .running })
        let r1 = hold(manager, "R1", .read, registrar: registrar, gate: reads)
        let w2 = hold(manager, "W2", .write, registrar: registrar, gate: secondWrite)
        let r2 = hold(manager, "R2", .read, registrar: registrar, gate: reads)
        #expect(await eventually { manager.snapshot().lock.queue.count == 3 })

        firstWrite.open()
        // Phase-fair: R2 arrived after W2 but enters with R1 in the read phase W1 hands over to.
        #expect(await eventually { r1.status.phase == .running && r2.status.phase == .running })
        #expect(w2.status.phase == .waiting)
        #expect(manager.snapshot().lock.mode == .read(count: 2))
        reads.open()
        #expect(await eventually { w2.status.phase == .running })
        secondWrite.open()
        try await w2.value
        #expect(registrar.violations.isEmpty)
    }

    @Test func writersAreServedInArrivalOrder() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let order = Recorder<String>()
        let first = manager.execute(title: "W1") { _ in await gate.wait(); order.record("W1") }
        #expect(await eventually { first.status.phase == .running })
        let rest = (2...6).map { index in
            manager.execute(title: "W\(index)") { _ in order.record("W\(index)") }
        }
        #expect(await eventually { manager.snapshot().lock.queue.count == 5 })
        // Arrival is when a flow's task reaches the lock: flows submitted back to back may
        // arrive in another order than they were submitted, so the queue tells the order.
        let arrivals = manager.snapshot().lock.queue.map(\.title)
        #expect(Set(arrivals) == ["W2", "W3", "W4", "W5", "W6"])
        gate.open()
        for flow in rest { try await flow.value }
        #expect(order.all == ["W1"] + arrivals)
    }

    @Test func aReaderBehindAWithdrawnWriterJoinsTheCurrentReadPhase() async throws {
        let manager = TaskFlowManager()
        let registrar = Registrar()
        let (reads, writes) = (Gate(), Gate())
        let r0 = hold(manager, "R0", .read, registrar: registrar, gate: reads)
        #expect(await eventually { r0.status.phase == .running })
        let w1 = hold(manager, "W1", .write, registrar: registrar, gate: writes)
        let r1 = hold(manager, "R1", .read, registrar: registrar, gate: reads)
        #expect(await eventually { r1.status.phase == .waiting })
        w1.cancel()
        #expect(await eventually { r1.status.phase == .running }, "no writer waits any more: R1 joins R0")
        #expect(r0.status.phase == .running)
        reads.open()
        try await r1.value
    }

    @Test func aWriterGetsInWhileReadersKeepArriving() async throws {
        let manager = TaskFlowManager()
        let (readers, beforeTheWriter) = (200, 20)
        let admitted = Recorder<Int>()
        // Reader n holds the lock until reader n + 1 holds it too (release[n]), and reader n + 1
        // arrives once reader n is in (arrive[n]): the read phase never ends by itself, so a
        // reader-preferring lock would never let the writer in. The first 20 readers arrive
        // before the writer, the others once it waits (unheld, the chain admitted all 200
        // before the writer came, one run in three); a phase-fair lock queues those behind it.
        let release = (0..<readers).map { _ in Gate() }
        let arrive = (0..<readers).map { _ in Gate() }
        let writerWaits = Gate()
        @Sendable func reader(_ number: Int) -> TaskFlow<Void> {
            manager.execute(title: "reader \(number)", access: .read) { _ in
                admitted.record(number)
                arrive[number].open()
                if number > 0 { release[number - 1].open() }
                await release[number].wait()
            }
        }
        let arrivals = Task {
            var flows: [TaskFlow<Void>] = []
            for number in 0..<readers {
                if number == beforeTheWriter { await writerWaits.wait() }
                flows.append(reader(number))
                await arrive[number].wait()
            }
            for flow in flows { try? await flow.value }
        }
        #expect(await eventually { admitted.all.count == beforeTheWriter }, "readers overlap continuously")
        let writer = manager.execute(title: "writer", access: .write) { _ in admitted.all.count }
        #expect(await eventually { writer.status.phase == .waiting })
        writerWaits.open()
        for gate in release + arrive { gate.open() }
        // Readers keep arriving until the writer is done: a starved writer fails here.
        #expect(await eventually { writer.status.phase == .completed }, "the writer is not starved")
        let readersWhenWriterRan = try await writer.value
        #expect(readersWhenWriterRan < readers, "the writer got in before the readers ran out")
        await arrivals.value
        #expect(admitted.all.count == readers, "the readers queued behind the writer ran after it")
    }

    @Test func cancellingAWaitingFlowLeavesTheQueueWithoutBlockingOthers() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let ran = Recorder<String>()
        let holder = manager.execute(title: "holder", access: .write) { _ in await gate.wait() }
        #expect(await eventually { holder.status.phase == .running })
        let queued = ["A", "B", "C"].map { title in
            manager.execute(title: title, access: .write) { _ in ran.record(title) }
        }
        #expect(await eventually { manager.snapshot().lock.queue.count == 3 })

        queued[1].cancel()
        #expect(await eventually { manager.snapshot().lock.queue.map(\.title) == ["A", "C"] })
        await #expect(throws: CancellationError.self) { try await queued[1].value }
        #expect(queued[1].status.phase == .cancelled)

        gate.open()
        try await queued[0].value
        try await queued[2].value
        #expect(ran.all == ["A", "C"], "the cancelled flow's body never ran")
        #expect(manager.snapshot().lock.mode == .idle)
    }

    @Test func manyRandomFlowsNeverBreakExclusivity() async throws {
        let manager = TaskFlowManager()
        let registrar = Registrar()
        var rng = SeededGenerator(seed: 0x5EED_10CC)
        let flows = (0..<400).map { index in
            let access: FlowAccess = Bool.random(using: &rng) ? .read : .write
            return manager.execute(title: "flow \(index)", access: access) { _ in
                registrar.enter(access.rawValue)
                await Task.yield()
                registrar.leave(access.rawValue)
            }
        }
        for flow in flows { try await flow.value }
        #expect(registrar.violations.isEmpty)
        #expect(registrar.maxReaders > 1, "readers did overlap")
    }

    /// Writers queued behind a writer wait without a task each, and each runs on the task of
    /// the one before it: 20,000 of them run one at a time in submission order, each handle
    /// answers as soon as its own flow ended (not when the queue is through), and the stack
    /// does not grow with the queue.
    @Test func aLongQueueOfWritersRunsInOrderAndEachHandleAnswersWhenItsFlowEnds() async throws {
        let manager = TaskFlowManager(undoHistoryLimit: 0)
        let gate = Gate()
        let order = Recorder<Int>()
        let first = manager.execute(title: "holder", access: .write) { _ in await gate.wait() }
        let count = 20_000
        let writers = (1...count).map { number in
            manager.execute(title: "writer \(number)", access: .write) { _ in order.record(number) }
        }
        #expect(await eventually { writers.allSatisfy { $0.status.phase == .waiting } })
        // The last writer is the one to wait for: each earlier handle must answer by itself.
        let (blockerIn, last) = (Gate(), Gate())
        let blocker = manager.execute(title: "blocker", access: .write) { _ in
            blockerIn.open()
            await last.wait()
        }
        gate.open()
        try await first.value
        for writer in writers { try await writer.value }
        #expect(order.all == Array(1...count), "in submission order, one at a time")
        // The last writer's handle may answer before the blocker's body begins: wait for it to
        // be in, which it cannot leave before `last` opens.
        await blockerIn.wait()
        #expect(blocker.status.phase == .running, "every writer answered while the one after them still ran")
        last.open()
        try await blocker.value
    }
}
