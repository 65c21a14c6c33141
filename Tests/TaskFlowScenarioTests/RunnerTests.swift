import Foundation
import TaskFlow
import Testing
@testable import TaskFlowScenario

/// Headless runs of the demos, at high speed, judged by the event log a user would read.
@Suite struct RunnerTests {
    private func demo(_ name: String) throws -> Scenario {
        try Scenario.load(contentsOf: Paths.demo.appending(path: "\(name).toml"))
    }

    @Test func publishPostUploadsInParallelThenPostsAndTheBrokenOneRollsBack() async throws {
        // At 10× the other uploads finish 140ms before the video fails: ample on a busy machine.
        let runner = ScenarioRunner(scenario: try demo("publish-post"), options: RunOptions(speed: 10))
        let events = runner.manager.events
        let run = runner.start()
        let outcomes = await run.finished()
        let log = EventTimeline(await collect(events, until: finishedFlows(3)))

        #expect(outcomes.map { "\($0.flow.title): \($0.status.name)" } == [
            "Publish holiday post: completed", "Read the feed: completed", "Publish with a broken video: failed",
        ])
        let post = "Publish holiday post"
        let uploads = ["Upload photo 1", "Upload photo 2", "Upload video"]
        for upload in uploads {
            #expect(log.index(of: "start Upload media", in: post) < log.index(of: "start \(upload)", in: post))
            #expect(log.index(of: "completed \(upload)", in: post) < log.index(of: "start Upload post", in: post))
        }
        // All uploads start before any finishes: they run side by side.
        let lastStart = uploads.map { log.index(of: "start \($0)", in: post) }.max() ?? .max
        let firstDone = uploads.map { log.index(of: "completed \($0)", in: post) }.min() ?? .min
        #expect(lastStart < firstDone)
        #expect(log.of(post).last == "status completed")

        let broken = "Publish with a broken video"
        #expect(log.of(broken).contains("failed Upload video"))
        #expect(!log.of(broken).contains("start Add to feed"))
        // The finished uploads are undone inside the group, last finished first, then the flow's
        // draft. Both finish 140 ms before the video fails; a loaded machine may cancel one first.
        let finished = log.of(broken).filter { $0.hasPrefix("completed Upload ") }.map { String($0.dropFirst("completed ".count)) }
        #expect(Set(finished).isSubset(of: ["Upload slides", "Upload photo"]))
        #expect(log.reverted(in: broken) == finished.reversed() + ["Save draft"])

        let published = ScenarioState(["drafts": .list([.string("Holiday in Lisbon")]), "feed": .list([.string("Holiday in Lisbon")])])
        #expect(runner.manager.state == published)
        let reader = try #require(outcomes.first { $0.flow.title == "Read the feed" })
        #expect(await run.snapshot(seenBy: reader.flow.id) == published)
    }

    /// Every submission is made, in schedule order, and every flow that can neither fail nor be
    /// cancelled by the file completes: waiting for the lock never ends a flow.
    @Test(arguments: ["tour", "read-write", "stress"])
    func demoRunsToTheEnd(_ name: String) async throws {
        let scenario = try demo(name)
        let outcomes = await ScenarioRunner(scenario: scenario, options: RunOptions(speed: 50)).start().finished()
        #expect(outcomes.count == ScenarioSummary(scenario).submissions)
        #expect(outcomes.map { [$0.flow.flowIndex, $0.flow.submission] }
            == SubmissionSchedule(scenario.flows).map { [$0.flowIndex, $0.submission] })
        #expect(outcomes.contains { $0.status.phase == .completed })
        for outcome in outcomes where !Self.mayEndEarly(scenario.flows[outcome.flow.flowIndex]) {
            #expect(outcome.status.phase == .completed, "\(outcome.flow.title)")
        }
    }

    /// Whether the file lets `flow` fail or be cancelled: a failure injected anywhere in its
    /// steps, or `cancel_after`.
    private static func mayEndEarly(_ flow: FlowSpec) -> Bool {
        func fails(_ step: StepSpec) -> Bool {
            switch step.kind {
            case .main(let work): work.failure != nil
            case .task(let work, let foreground): work.failure != nil || foreground.contains(where: fails)
            case .group(let children), .sequence(let children): children.contains(where: fails)
            case .update: false
            }
        }
        return flow.cancelAfter != nil || flow.steps.contains(where: fails)
    }

    @Test func cancellingTheLongFlowMidWayRevertsLastFirst() async throws {
        // Convert authors takes an hour here: the clock holds its first wait (six minutes, a
        // tick's; the demo's other waits are a second at most, and pass at once) until the cancel
        // is in, so the cancel lands mid-way whatever the machine's pace.
        let text = try String(contentsOf: Paths.demo.appending(path: "rollback.toml"), encoding: .utf8)
        let long = #"{ task = "Convert authors", duration = "1.5s""#
        try #require(text.contains(long))
        var scenario = try Scenario.parse(text.replacingOccurrences(of: long, with: #"{ task = "Convert authors", duration = "60m""#))
        let migrate = try #require(scenario.flows.firstIndex { $0.title == "Migrate library" })
        scenario.flows[migrate].cancelAfter = nil  // this test cancels it itself
        let clock = ParkingClock(parkingFrom: .seconds(60))
        let runner = ScenarioRunner(scenario: scenario, clock: clock)
        let events = runner.manager.events
        let watch = runner.manager.events  // a second observer: collect stops observing when done
        let run = runner.start()
        let midWay = await collect(watch) { seen in
            seen.contains { if case .stepStarted(_, let step) = $0 { step.title == "Convert authors" } else { false } }
        }
        #expect(!midWay.isEmpty)
        await run.flow(titled: "Migrate library")?.handle.cancel()
        await clock.open()
        let outcomes = await run.finished()
        let log = EventTimeline(await collect(events, until: finishedFlows(3)))

        let flow = "Migrate library"
        #expect(outcomes.map { "\($0.flow.title): \($0.status.name)" } == [
            "Rename shelf: completed", "\(flow): cancelled", "Audit: completed",
        ])
        #expect(log.of(flow).contains("cancelled Convert authors"))
        #expect(!log.of(flow).contains("start Rebuild index"))
        #expect(log.reverted(in: flow) == [
            "Convert books", "Record migration", "Export catalogue", "Update export badge", "Show export banner", "Lock the editor",
        ])
        #expect(runner.manager.state == ScenarioState(["shelf": .string("Science fiction")]))
        let audit = try #require(outcomes.first { $0.flow.title == "Audit" })
        #expect(await run.snapshot(seenBy: audit.flow.id) == ScenarioState(["shelf": .string("Science fiction")]))
    }

    @Test func cancelAfterCancelsByItselfAndACompletedFlowCanBeUndone() async throws {
        let runner = ScenarioRunner(scenario: try demo("rollback"), options: RunOptions(speed: 20))
        let run = runner.start()
        let outcomes = await run.finished()
        #expect(outcomes.map(\.status.phase) == [.completed, .cancelled, .completed])

        let rename = try #require(await run.flow(titled: "Rename shelf"))
        try await rename.handle.undo()
        #expect(rename.handle.status.phase == .undone)
        #expect(runner.manager.state == ScenarioState())
    }

    /// A sequence, not a group: in a group a failing sibling may stop another before its own
    /// failure point, which is timing, not the seed.
    @Test func theSameSeedFailsTheSameStepsAndEndsTheSameWay() async throws {
        let scenario = try Scenario.parse("""
        name = "Dice"
        [[flow]]
        title = "Try"
        every = "10ms"
        times = 24
          [[flow.step]]
          sequence = "Both"
          steps = [
            { task = "Left", duration = "100ms", revert = true, fail_chance = 0.3 },
            { task = "Right", duration = "100ms", revert = true, fail_chance = 0.3 },
          ]
          [[flow.step]]
          main = "Finish"
          fail_chance = 0.2
          revert = true
        """)

        func outcome(seed: UInt64) async -> (statuses: [String], failed: [String]) {
            let runner = ScenarioRunner(scenario: scenario, options: RunOptions(speed: 10, seed: seed))
            let events = runner.manager.events
            let outcomes = await runner.start().finished()
            let log = EventTimeline(await collect(events, until: finishedFlows(24)))
            let failed = log.lines.filter { $0.text.hasPrefix("failed ") }.map(\.description).sorted()
            return (outcomes.map { "\($0.flow.title): \($0.status.name)" }, failed)
        }

        let first = await outcome(seed: 7)
        let second = await outcome(seed: 7)
        #expect(first.statuses == second.statuses)
        #expect(first.failed == second.failed)
        // The dice really rolled both ways, so the comparison means something.
        #expect(first.statuses.contains { $0.hasSuffix("failed") })
        #expect(first.statuses.contains { $0.hasSuffix("completed") })
    }

    @Test func tasksReportProgressSeveralTimes() async throws {
        let scenario = try Scenario.parse(scenario(step: "task = \"Slow\"\nduration = \"2s\""))
        let runner = ScenarioRunner(scenario: scenario, options: RunOptions(speed: 10))
        let events = runner.manager.events
        _ = await runner.start().finished()
        let progress = await collect(events, until: finishedFlows(1)).compactMap { event -> Double? in
            if case .progress(_, _, let fraction) = event { fraction } else { nil }
        }
        #expect(progress.count >= 3)
        #expect(progress.last == 1)
    }

    @Test func speedScalesEveryWaitAndMainStepsWaitOffTheMainActor() async throws {
        let clock = RecordingClock()
        let scenario = try Scenario.parse(scenario(flow: "start = \"2s\"", step: "main = \"Show\"\nduration = \"1s\"\nrevert = true"))
        _ = await ScenarioRunner(scenario: scenario, options: RunOptions(speed: 4), clock: clock).start().finished()
        // The start, then the main step's two halves around its instant main-actor part.
        #expect(await clock.waits == [.milliseconds(500), .milliseconds(125), .milliseconds(125)])
    }

    @Test func repeatedFlowsAreNumberedAndStartEveryInterval() async throws {
        let clock = RecordingClock()
        let scenario = try Scenario.parse(scenario(flow: "every = \"1s\"\ntimes = 3", step: "update = \"Tick\"\nappend = { ticks = 1 }"))
        let runner = ScenarioRunner(scenario: scenario, clock: clock)
        let outcomes = await runner.start().finished()
        #expect(outcomes.map(\.flow.title) == ["Flow (1/3)", "Flow (2/3)", "Flow (3/3)"])
        // One scheduler sleeps from each start to the next.
        #expect(await clock.waits == [.seconds(1), .seconds(1)])
        #expect(runner.manager.state == ScenarioState(["ticks": .list([.integer(1), .integer(1), .integer(1)])]))
    }

    @Test func failureDiceDependOnlyOnSeedAndAddress() {
        let dice = FailureDice(seed: 99)
        #expect(dice.roll("0/1/2", draw: 0) == FailureDice(seed: 99).roll("0/1/2", draw: 0))
        #expect(dice.roll("0/1/2", draw: 0) != FailureDice(seed: 100).roll("0/1/2", draw: 0))
        #expect(dice.failurePoint(of: .at(0.25), at: "x") == 0.25)
        #expect(dice.failurePoint(of: .chance(0), at: "x") == nil)
        #expect(dice.failurePoint(of: .chance(1), at: "x") != nil)
    }
}

/// How submissions are scheduled: one at a time, in a fixed order, stoppable.
extension RunnerTests {
    /// Flows starting together are submitted in file order (a repeated flow's submissions in
    /// their own order), so the manager numbers them the same way on every run. Before, each
    /// submission raced from its own task.
    @Test func flowsStartingTogetherAreSubmittedInFileOrder() async throws {
        let others = (1...20).map { "[[flow]]\ntitle = \"F\($0)\"\n[[flow.step]]\nmain = \"M\"\n" }
        let text = """
        name = "Order"
        [[flow]]
        title = "R"
        every = "10ms"
        times = 3
        [[flow.step]]
        main = "M"
        \(others.joined())
        [[flow]]
        title = "L"
        start = "10ms"
        [[flow.step]]
        main = "M"
        """
        let scenario = try Scenario.parse(text)
        let expected = ["R (1/3)"] + (1...20).map { "F\($0)" } + ["R (2/3)", "L", "R (3/3)"]
        var ids: [[Int]] = []
        for _ in 0..<2 {
            let outcomes = await ScenarioRunner(scenario: scenario, clock: RecordingClock()).start().finished()
            #expect(outcomes.map(\.flow.title) == expected)
            ids.append(outcomes.map(\.flow.id.rawValue))
        }
        #expect(ids[0] == ids[0].sorted())
        #expect(ids[0] == ids[1])
    }

    /// Submissions wait for their turn in one task. Before, each had a task sleeping from the
    /// start of the run, so memory grew with `times` (200,000 repeats took 700 MB).
    @Test func pendingSubmissionsDoNotEachHoldASleepingTask() async throws {
        let clock = SleeperCountingClock()
        let scenario = try Scenario.parse(scenario(flow: "every = \"1s\"\ntimes = 50", step: "update = \"Tick\"\nappend = { ticks = 1 }"))
        let outcomes = await ScenarioRunner(scenario: scenario, clock: clock).start().finished()
        #expect(outcomes.count == 50)
        #expect(await clock.mostAtOnce == 1)
    }

    /// A file may ask for submissions faster than the engine ends them (100 flows × 10,000 every
    /// millisecond grew 100 MB a second): a run keeps at most its limit of flows submitted and
    /// unfinished, and a further submission waits for one of them to end. Here each flow's step
    /// waits an hour before every progress tick (a tenth of its duration), and the clock parks
    /// such waits, so a flow ends only when this test cancels it and lets its wait end.
    @Test func aSubmissionWaitsForAFlowToEndOnceTheLimitIsOutstanding() async throws {
        let hour = Duration.seconds(3600)
        let duration = "\((hour * StepPlayer.ticks).components.seconds / 60)m"
        let scenario = try Scenario.parse(
            scenario(flow: "every = \"1ms\"\ntimes = 50", step: "task = \"Work\"\nduration = \"\(duration)\"\nprogress = false"))
        let clock = ParkingClock(parkingFrom: hour)
        let runner = ScenarioRunner(scenario: scenario, options: RunOptions(), clock: clock, outstandingLimit: 4)
        let run = runner.start()
        var launched: [ScenarioFlow] = []
        for await flow in run.launches {
            launched.append(flow)
            let outstanding = runner.manager.snapshot().flows.filter { !$0.status.isFinished }.count
            #expect(outstanding <= 4, "flows unfinished when #\(launched.count) was launched")
            if launched.count >= 4 {
                // The oldest flow holds the write lock or waits for it. Running, it is `cancelling`
                // once cancelled, and its parked wait is the one to end: then it sees the cancel.
                // Not started yet, it never will: a release would be a permit left for a later
                // flow's waits, which could then run to completion uncancelled.
                let oldest = launched[launched.count - 4].handle
                oldest.cancel()
                if oldest.status.phase == .cancelling { await clock.release() }
            }
        }
        #expect(launched.count == 50)
        for flow in launched { flow.handle.cancel() }
        await clock.open()
        #expect(await run.finished().allSatisfy { if case .cancelled = $0.status { true } else { false } })
    }

    @Test func stopEndsLaunchesAndSubmitsNothingMore() async throws {
        let scenario = try Scenario.parse(scenario(flow: "every = \"10m\"\ntimes = 3", step: "main = \"M\""))
        let run = ScenarioRunner(scenario: scenario).start()
        var launched: [String] = []
        for await flow in run.launches {
            launched.append(flow.title)
            // The next submission is ten minutes away: stop must not wait for it.
            await run.stop()
        }
        #expect(launched == ["Flow (1/3)"])
        #expect(await run.finished().map(\.flow.title) == ["Flow (1/3)"])
    }
}

/// Counts the sleeps under way at once; each really pauses a moment so that sleeps made at
/// the same time overlap.
actor SleeperCountingClock: ScenarioClock {
    private var sleeping = 0
    private(set) var mostAtOnce = 0

    func sleep(for duration: Duration) async throws {
        sleeping += 1
        mostAtOnce = max(mostAtOnce, sleeping)
        defer { sleeping -= 1 }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// A clock on which waits from `parkingFrom` on last until the test lets them end: ``release()``
/// ends one (the oldest, or the next to come if none waits), ``open()`` ends them all and every
/// later one at once. Shorter waits return at once. Cancelling a parked wait does not end it.
actor ParkingClock: ScenarioClock {
    private let parkingFrom: Duration
    private var isOpen = false
    private var permits = 0
    private var parked: [CheckedContinuation<Void, Never>] = []

    init(parkingFrom: Duration = .zero) {
        self.parkingFrom = parkingFrom
    }

    func sleep(for duration: Duration) async throws {
        guard duration >= parkingFrom, !isOpen else { return try Task.checkCancellation() }
        if permits > 0 {
            permits -= 1
        } else {
            await withCheckedContinuation { parked.append($0) }
        }
        try Task.checkCancellation()
    }

    func release() {
        if parked.isEmpty { permits += 1 } else { parked.removeFirst().resume() }
    }

    func open() {
        isOpen = true
        for waiter in parked { waiter.resume() }
        parked = []
    }
}

/// A clock that returns at once and remembers what it was asked to wait.
actor RecordingClock: ScenarioClock {
    private(set) var waits: [Duration] = []

    func sleep(for duration: Duration) async throws {
        waits.append(duration)
    }
}

@Suite struct StartSubmissionTests {
    /// A dashboard lists the flows due at the start before it acts on keys typed meanwhile: the
    /// run says when they are all submitted, without waiting for the later ones.
    @Test func theFlowsDueAtTheStartAreSubmittedWhenTheRunSaysSo() async throws {
        let scenario = try Scenario.parse(
            """
            name = "Later too"
            [[flow]]
            title = "Now"
            access = "read"
              [[flow.step]]
              task = "Read"
              duration = "10m"
            [[flow]]
            title = "Also now"
            access = "read"
              [[flow.step]]
              task = "Read"
              duration = "10m"
            [[flow]]
            title = "Later"
            start = "60m"
              [[flow.step]]
              task = "Write"
              duration = "1ms"
            """, file: "later-too.toml")
        let clock = ParkingClock()
        let run = ScenarioRunner(scenario: scenario, clock: clock).start(retaining: .unfinished)
        await run.flowsDueAtStartSubmitted()
        #expect(run.manager.snapshot().flows.map(\.info.title) == ["Now", "Also now"])
        // The reads end their step, and the stop its wait, once time may pass.
        await clock.open()
        await run.stop()
        await run.flowsDueAtStartSubmitted()
    }
}

/// A dashboard plays a scenario for days: a run that keeps only unfinished flows forgets each
/// one as it ends.
@Suite struct RetentionTests {
    @Test func aRunRetainingUnfinishedFlowsForgetsThemAsTheyEnd() async throws {
        let scenario = try Scenario.parse(
            """
            name = "Forgetful"
            [[flow]]
            title = "Quick"
            every = "10ms"
            times = 50
              [[flow.step]]
              task = "Work"
              duration = "1ms"
            [[flow]]
            title = "Look"
            access = "read"
            every = "10ms"
            times = 10
              [[flow.step]]
              task = "Read"
              duration = "1ms"
            """, file: "forgetful.toml")
        let ids = (1...60).map(FlowID.init)
        let everything = ScenarioRunner(scenario: scenario, options: RunOptions(speed: 10)).start()
        #expect(await everything.finished().count == 60)
        #expect(await everything.flows().count == 60)
        var seen = 0
        for id in ids where await everything.snapshot(seenBy: id) != nil { seen += 1 }
        #expect(seen == 10, "every read flow's snapshot is kept")
        let forgetful = ScenarioRunner(scenario: scenario, options: RunOptions(speed: 10)).start(retaining: .unfinished)
        #expect(await forgetful.finished().isEmpty)
        #expect(await forgetful.flows().isEmpty)
        for id in ids { #expect(await forgetful.snapshot(seenBy: id) == nil, "the snapshot a finished read flow saw is forgotten") }
    }
}
