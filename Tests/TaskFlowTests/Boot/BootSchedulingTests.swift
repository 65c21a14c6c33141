import Testing
import TaskFlow
import TaskFlowTestSupport

/// How a boot runs its tasks: as parallel as the dependencies allow, never before a dependency
/// succeeded, stopping at the first failure or a cancellation.
@Suite struct BootSchedulingTests {
    @Test func twoIndependentTasksRunTogether() async throws {
        let marks = Recorder<Mark>()
        let boot = Boot<Int>(title: "Start")
        for title in ["A", "B"] {
            boot.task(title) {
                marks.record(.start(title))
                // Each ends only once both started, which a boot that ran them one after the
                // other never lets happen (the first would give up waiting, and end first).
                _ = await eventually { marks.all.count >= 2 }
                marks.record(.end(title))
            }
        }
        try await boot.run()
        // Both started before either ended: they ran together. A boot that ran them one after
        // the other would mark start, end, start, end.
        #expect(Set(marks.all.prefix(2)) == [.start("A"), .start("B")])
        #expect(Set(marks.all.suffix(2)) == [.end("A"), .end("B")])
    }

    @Test func aTaskStartsWhenItsOwnDependenciesAreDoneNotWhenEverythingEarlierIs() async throws {
        let marks = Recorder<Mark>()
        let boot = Boot<Int>(title: "Start")
        // "Slow" waits (bounded) until "Next" has started: that only happens if "Next" does not
        // wait for "Slow", which it does not depend on.
        addWaitingTask("Slow", to: boot, marks: marks) { marks.position(of: .start("Next")) != nil }
        boot.task("Quick") { marks.record(.end("Quick")) }
        boot.task("Next", after: ["Quick"]) { marks.record(.start("Next")) }
        try await boot.run()
        let nextStart = try #require(marks.position(of: .start("Next")))
        let slowEnd = try #require(marks.position(of: .end("Slow")))
        #expect(nextStart < slowEnd)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func aTaskNeverStartsBeforeItsDependenciesInRandomGraphs(seed: UInt64) async throws {
        var rng = SeededGenerator(seed: seed)
        let count = 300
        let marks = Recorder<Mark>()
        let boot = Boot<Int>(title: "Random")
        var dependencies: [[Int]] = []
        for index in 0..<count {
            let after = index == 0 ? [] : (0..<Int(rng.next() % 4)).map { _ in Int(rng.next() % UInt64(index)) }
            dependencies.append(after)
            let yields = Int(rng.next() % 3)
            boot.task("t\(index)", after: after.map { "t\($0)" }) {
                marks.record(.start("t\(index)"))
                for _ in 0..<yields { await Task.yield() }
                marks.record(.end("t\(index)"))
            }
        }
        try await boot.run()
        let position = Dictionary(marks.all.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(marks.all.count == 2 * count, "every task ran once")
        for (index, after) in dependencies.enumerated() {
            let start = try #require(position[.start("t\(index)")])
            for dependency in after {
                let end = try #require(position[.end("t\(dependency)")])
                #expect(end < start, "t\(index) started before its dependency t\(dependency) ended")
            }
        }
    }

    @Test func theFirstFailureSkipsWhatDependsOnItAndLetsRunningTasksFinish() async throws {
        let marks = Recorder<Mark>()
        let boot = Boot<Int>(title: "Start")
        let progress = ProgressLog(boot)
        // Still running when the boot learns that "Store" failed (its failure event is out); must
        // be allowed to finish. (Waiting only for Store's body to end is not enough: this task's
        // end may then reach the boot first, and its dependent rightly start.)
        addWaitingTask("Running", to: boot, marks: marks) {
            progress.received.contains { if case .taskFailed(task: "Store", _, _, _) = $0 { true } else { false } }
        }
        boot.task("Store") {
            marks.record(.end("Store"))
            throw Boom("store")
        }
        boot.task("Recover", after: ["Store"]) { marks.record(.start("Recover")) }
        boot.task("After running", after: ["Running"]) { marks.record(.start("After running")) }
        await #expect(throws: Boom("store")) { try await boot.run() }
        #expect(marks.all.contains(.end("Running")))
        #expect(!marks.all.contains(.start("Recover")))
        #expect(!marks.all.contains(.start("After running")), "nothing starts after the first failure")
        #expect(await progress.skipped() == ["Recover", "After running"])
        let events = await progress.events()
        #expect(events.contains { if case .taskFailed("Store", _, _, "Boom(store)") = $0 { true } else { false } })
        #expect(events.contains { if case .taskFinished("Running", _, _) = $0 { true } else { false } })
    }

    @Test func cancellingTheAwaitingTaskStopsTheBootCooperatively() async throws {
        let marks = Recorder<Mark>()
        let boot = Boot<Int>(title: "Start")
        let progress = ProgressLog(boot)
        addWaitingTask("Long", to: boot, marks: marks) { Task.isCancelled }
        boot.task("Later", after: ["Long"]) { marks.record(.start("Later")) }
        let running = Task { try await boot.run() }
        #expect(await eventually { marks.position(of: .start("Long")) != nil })
        running.cancel()
        await #expect(throws: CancellationError.self) { try await running.value }
        #expect(marks.all == [.start("Long"), .end("Long, cancelled")])
        #expect(await progress.skipped() == ["Later"])
    }

    @Test func observersAreDoneAtOnceAndTasksMayRunAfterThem() async throws {
        let boot = Boot<Int>(title: "Start")
        let ran = Recorder<String>()
        boot.observer("Log") { _ in }
        boot.task("UI", after: ["Log"]) { ran.record("UI") }
        try await boot.run()
        #expect(ran.all == ["UI"])
    }

    @Test func progressDescribesTheBootAsAFlow() async throws {
        let boot = Boot<Int>(title: "Start")
        let progress = ProgressLog(boot)
        boot.task("Open store") {}
        boot.task("Recover jobs", after: ["Open store"]) {}
        try await boot.run()
        let events = await progress.events()
        #expect(events.first == .started(boot: "Start", tasks: [
            BootTaskInfo(title: "Open store", after: [], isObserver: false),
            BootTaskInfo(title: "Recover jobs", after: ["Open store"], isObserver: false),
        ]))
        let steps: [String] = events.compactMap { event in
            switch event {
            case .taskStarted(let task, _): "start \(task)"
            case .taskFinished(let task, _, _): "end \(task)"
            default: nil
            }
        }
        #expect(steps == ["start Open store", "end Open store", "start Recover jobs", "end Recover jobs"])
        guard case .finished("Start", _, nil) = events.last else {
            Issue.record("the stream should end with a successful .finished, got \(String(describing: events.last))")
            return
        }
    }

    @Test func theCompletionCallbackFiresOnceWithTheOutcome() async throws {
        let boot = Boot<Int>(title: "Start")
        let outcomes = Recorder<String>()
        boot.task("Fails") { throw Boom() }
        boot.onCompletion { result in outcomes.record("early: \(result)") }
        await #expect(throws: Boom()) { try await boot.run() }
        boot.onCompletion { result in outcomes.record("late: \(result)") }
        #expect(outcomes.all == ["early: failure(Boom(boom))", "late: failure(Boom(boom))"])
    }

    /// Adds a task that marks its start, waits (bounded, polling) until `condition` holds, then
    /// marks its end — as "<title>, cancelled" if it saw the boot cancelled.
    private func addWaitingTask(
        _ title: String, to boot: Boot<Int>, marks: Recorder<Mark>, until condition: @escaping @Sendable () -> Bool
    ) {
        boot.task(title) {
            marks.record(.start(title))
            _ = await eventually(condition)
            marks.record(.end(Task.isCancelled ? "\(title), cancelled" : title))
        }
    }
}
