import Testing
import TaskFlow
import TaskFlowTestSupport

/// `Job.group`, `Job.sequence`, `map` and `then`: typed results, order, first error, nesting.
@Suite struct JobCompositionTests {
    /// A job that returns `value` once `gate` opens, and records when it finished.
    func value(_ value: Int, after gate: Gate, finished: Recorder<Int>) -> Job<Int> {
        Job(title: "value \(value)") { _ in
            await gate.wait()
            finished.record(value)
            return value
        }
    }

    /// A job that waits (cancellably) until it is cancelled, records that, and rethrows.
    func waitsForCancel(_ name: String, cancelled: Recorder<String>, started: Gate? = nil) -> Job<Int> {
        Job(title: name) { _ in
            started?.open()
            do {
                try await Task.sleep(for: .seconds(600))
            } catch {
                cancelled.record(name)
                throw error
            }
            return 0
        }
    }

    @Test func aGroupRunsInParallelAndKeepsTheInputOrder() async throws {
        let gates = (0..<3).map { _ in Gate() }
        let finished = Recorder<Int>()
        let group = Job.group(title: "three", (0..<3).map { value($0, after: gates[$0], finished: finished) })
        let run = Task { try await group.run() }
        // All three wait at once (parallel); they finish in reverse order.
        gates[2].open()
        #expect(await eventually { finished.all == [2] })
        gates[1].open()
        #expect(await eventually { finished.all == [2, 1] })
        gates[0].open()
        #expect(try await run.value == [0, 1, 2])
        #expect(finished.all == [2, 1, 0])
    }

    @Test func aGroupsFirstErrorCancelsTheSiblingsAndIsRethrown() async throws {
        let cancelled = Recorder<String>()
        let started = (0..<2).map { _ in Gate() }
        let failing = Job<Int>(title: "fails") { _ in
            for gate in started { await gate.wait() }
            throw Boom("real")
        }
        let group = Job.group(title: "g", [
            waitsForCancel("a", cancelled: cancelled, started: started[0]), failing,
            waitsForCancel("b", cancelled: cancelled, started: started[1]),
        ])
        await #expect(throws: Boom("real")) { try await group.run() }
        #expect(Set(cancelled.all) == ["a", "b"], "the group waited for both siblings to stop")
    }

    @Test func aRealErrorWinsOverTheCancellationsItCaused() async throws {
        // The first child to fail throws CancellationError (it gave up); that cancels its
        // sibling, which then fails for real. The real error is what the group reports.
        let started = Gate()
        let givesUp = Job<Int>(title: "gives up") { _ in
            await started.wait()
            throw CancellationError()
        }
        let failsWhenCancelled = Job<Int>(title: "fails when cancelled") { _ in
            started.open()
            do { try await Task.sleep(for: .seconds(600)) } catch { throw Boom("cleanup failed") }
            return 0
        }
        await #expect(throws: Boom("cleanup failed")) {
            try await Job.group(title: "g", [givesUp, failsWhenCancelled]).run()
        }
    }

    @Test func aSequenceRunsInTurnAndStopsAtTheFirstError() async throws {
        let ran = Recorder<String>()
        func step(_ name: String, fails: Bool = false) -> Job<String> {
            Job(title: name) { _ in
                ran.record(name)
                if fails { throw Boom(name) }
                return name
            }
        }
        #expect(try await Job.sequence(title: "ok", [step("a"), step("b")]).run() == ["a", "b"])
        await #expect(throws: Boom("c")) {
            try await Job.sequence(title: "stops", [step("c", fails: true), step("d")]).run()
        }
        #expect(ran.all == ["a", "b", "c"], "d never ran")
    }

    @Test func compositesNestAndRunAgainEachTime() async throws {
        let runs = Recorder<Int>()
        func number(_ value: Int) -> Job<Int> {
            Job(title: "\(value)") { _ in
                runs.record(value)
                return value
            }
        }
        let nested = Job.group(title: "outer", [
            Job.sequence(title: "first", [number(1), number(2)]),
            Job.sequence(title: "second", [number(3), number(4)]),
        ])
        #expect(try await nested.run() == [[1, 2], [3, 4]])
        #expect(try await nested.run() == [[1, 2], [3, 4]])
        #expect(runs.all.count == 8)
        #expect(try await Job<[Int]>.group(title: "none", []).run() == [])
    }

    @Test func childrenKeepTheirOwnRetriesAndHandlers() async throws {
        let attempts = Recorder<Int>()
        let values = Recorder<Int>()
        let child = Job(title: "flaky") { job in
            attempts.record(job.attempt)
            if job.attempt < 2 { throw Boom() }
            return job.attempt
        }
        .retry(1)
        .onValue { values.record($0) }
        #expect(try await Job.group(title: "g", [child]).run() == [2])
        #expect(attempts.all == [1, 2])
        #expect(values.all == [2], "the child's handler ran once, for its final value")
    }

    @Test func mapAndThenComposeJobsOfDifferentTypes() async throws {
        let count = Job(title: "count") { _ in 3 }
        let name = Job(title: "name") { _ in "Dune" }
        let both = Job.group(title: "mixed", [count.map { _ in }, name.map { _ in }])
        #expect(try await both.run().count == 2)

        let described = count.then { n in Job(title: "describe") { _ in String(repeating: "*", count: n) } }
        #expect(try await described.run() == "***")
        #expect(try await name.map { $0.count }.run() == 4)
        await #expect(throws: Boom("no")) {
            try await count.map { _ -> Int in throw Boom("no") }.run()
        }
    }
}
