import Testing
import TaskFlow
import TaskFlowTestSupport

/// `run()` checks the whole graph first: a duplicate, an unknown name or a cycle is refused with
/// a `BootError` naming it, and no task runs.
@Suite struct BootValidationTests {
    /// A boot whose tasks record that they ran, built from (title, after) pairs.
    private func makeBoot(_ tasks: [(String, [String])], ran: Recorder<String>) -> Boot<Int> {
        let boot = Boot<Int>(title: "Start")
        for (title, after) in tasks {
            boot.task(title, after: after) { ran.record(title) }
        }
        return boot
    }

    /// Runs the boot, expects `expected`, and checks that nothing ran and that the progress
    /// stream ends with that failure and nothing else.
    private func expectRefused(_ tasks: [(String, [String])], with expected: BootError) async {
        let ran = Recorder<String>()
        let boot = makeBoot(tasks, ran: ran)
        #expect(throws: expected) { try boot.validate() }
        let progress = ProgressLog(boot)
        await #expect(throws: expected) { try await boot.run() }
        #expect(ran.all.isEmpty, "no task may run when the graph is refused")
        let events = await progress.events()
        #expect(events.count == 1)
        guard case .finished(_, _, let failure) = events.last else {
            Issue.record("the stream should end with .finished, got \(events)")
            return
        }
        #expect(failure == expected.description)
    }

    @Test func aCycleIsRefusedAndNamedAsItsPath() async {
        let tasks = [("Load theme", []), ("Open store", ["Recover jobs"]), ("Recover jobs", ["Open store"]),
                     ("Show UI", ["Load theme", "Recover jobs"])]
        await expectRefused(tasks, with: .cycle(boot: "Start", path: ["Open store", "Recover jobs", "Open store"]))
        #expect(BootError.cycle(boot: "Start", path: ["Open store", "Recover jobs", "Open store"]).description
            == "boot \"Start\": cycle Open store → Recover jobs → Open store")
    }

    @Test func aLongerCycleIsNamedInRunOrderFromItsEarliestTask() async {
        // B runs after A, C after B, A after C; D hangs off the cycle and X is outside it.
        let tasks = [("X", []), ("A", ["C"]), ("B", ["A"]), ("C", ["B"]), ("D", ["A", "X"])]
        await expectRefused(tasks, with: .cycle(boot: "Start", path: ["A", "B", "C", "A"]))
    }

    @Test func aTaskAfterItselfIsACycle() async {
        await expectRefused([("A", []), ("B", ["A", "B"])], with: .cycle(boot: "Start", path: ["B", "B"]))
    }

    @Test func anUnknownNameIsRefused() async {
        await expectRefused([("Open store", []), ("Recover jobs", ["Open stor"])],
                            with: .unknownDependency(boot: "Start", task: "Recover jobs", dependency: "Open stor"))
    }

    @Test func aDuplicateTitleIsRefused() async {
        await expectRefused([("Open store", []), ("Load theme", []), ("Open store", [])],
                            with: .duplicateTitle(boot: "Start", title: "Open store"))
    }

    @Test func anObserverSharesTheTasksTitles() async {
        let boot = Boot<Int>(title: "Start")
        boot.task("Log") {}
        boot.observer("Log") { _ in }
        #expect(throws: BootError.duplicateTitle(boot: "Start", title: "Log")) { try boot.validate() }
    }

    /// A 100,000-task cycle: finding and naming it must not recurse (a recursive search would
    /// overflow the stack long before this depth).
    @Test func aHundredThousandTaskCycleIsNamedWithoutRecursion() async {
        let count = 100_000
        let boot = Boot<Int>(title: "Chain")
        boot.task("t0", after: ["t\(count - 1)"]) {}
        for index in 1..<count { boot.task("t\(index)", after: ["t\(index - 1)"]) {} }
        do {
            try boot.validate()
            Issue.record("the cycle was not found")
        } catch {
            guard case .cycle(_, let path) = error else {
                Issue.record("expected a cycle, got \(error)")
                return
            }
            #expect(path.count == count + 1)
            #expect(path.prefix(3) == ["t0", "t1", "t2"])
            #expect(path.last == "t0")
        }
        let chain = Boot<Int>(title: "Chain")
        chain.task("t0") {}
        for index in 1..<count { chain.task("t\(index)", after: ["t\(index - 1)"]) {} }
        #expect(throws: Never.self) { try chain.validate() }
    }

    @Test func aSecondRunIsRefusedWithoutRunningAnythingAgain() async throws {
        let ran = Recorder<String>()
        let boot = makeBoot([("A", [])], ran: ran)
        try await boot.run()
        await #expect(throws: BootError.alreadyStarted(boot: "Start")) { try await boot.run() }
        #expect(ran.all == ["A"])
    }
}
