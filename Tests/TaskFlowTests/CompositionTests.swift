import Testing
import TaskFlow
import TaskFlowTestSupport

/// Groups (parallel) and sequences (serial): first error, sibling cancellation, reuse, nesting.
@Suite struct CompositionTests {
    @Test func groupChildrenRunInParallel() async throws {
        let manager = TaskFlowManager()
        let registrar = Registrar()
        let gate = Gate()
        let flow = manager.execute(title: "parallel") { flow in
            try await flow.group(title: "three at once") { group in
                for index in 1...3 {
                    group.task(title: "child \(index)", apply: { _ in
                        registrar.enter("read")
                        await gate.wait()
                        registrar.leave("read")
                    })
                }
            }
        }
        #expect(await eventually { registrar.maxReaders == 3 }, "all three children run at the same time")
        gate.open()
        try await flow.value
    }

    @Test func aGroupsFirstErrorCancelsSiblingsWaitsAndRevertsTheCompletedOnesInReverseCompletionOrder() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let (fastDone, slowStarted) = (Gate(), Gate())
        let flow = manager.execute(title: "publish") { flow in
            try await flow.group(title: "uploads") { group in
                group.task(title: "fast", apply: { _ in trace.record("fast done"); fastDone.open() },
                           revert: { _, _ in trace.record("revert fast") })
                group.task(title: "second", apply: { _ in
                    // Completed as the engine counts it (its revert registered), not only its
                    // body returned: only then is "second" sure to complete after it.
                    await fastDone.wait()
                    _ = await eventually { manager.step("fast")?.status == .completed }
                    trace.record("second done")
                }, revert: { _, _ in trace.record("revert second") })
                group.task(title: "patient", apply: { task in
                    slowStarted.open()
                    while !task.isCancelled { await Task.yield() }
                    trace.record("patient saw cancel")
                    throw CancellationError()
                }, revert: { _, _ in trace.record("revert patient") })
                group.task(title: "failing", apply: { _ in
                    await slowStarted.wait()
                    while !trace.all.contains("second done") { await Task.yield() }
                    throw Boom("upload")
                }, revert: { _, _ in trace.record("revert failing") })
            }
            trace.record("after group")
        }
        await #expect(throws: Boom("upload")) { try await flow.value }
        let events = trace.all
        #expect(events.contains("patient saw cancel"), "the sibling was told to stop")
        #expect(!events.contains("after group"))
        #expect(!events.contains("revert patient") && !events.contains("revert failing"), "steps that did not complete are not reverted")
        #expect(Array(events.suffix(2)) == ["revert second", "revert fast"], "reverse completion order")
    }

    @Test func aSequenceStopsAtTheFirstErrorAndRevertsWhatCompleted() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let flow = manager.execute(title: "steps") { flow in
            try await flow.sequence(title: "one by one") { seq in
                seq.task(title: "1", apply: { _ in trace.record("1") }, revert: { _, _ in trace.record("revert 1") })
                seq.task(title: "2", apply: { _ in trace.record("2") }, revert: { _, _ in trace.record("revert 2") })
                seq.task(title: "3", apply: { _ in throw Boom() }, revert: { _, _ in trace.record("revert 3") })
                seq.task(title: "4", apply: { _ in trace.record("4") }, revert: { _, _ in trace.record("revert 4") })
            }
        }
        await #expect(throws: Boom.self) { try await flow.value }
        #expect(trace.all == ["1", "2", "revert 2", "revert 1"])
    }

    @Test func aSequenceDescriptionCanBePerformedTwice() async throws {
        let manager = TaskFlowManager(state: [String]())
        let counter = Recorder<Int>()
        let steps = CompositeStep<[String]>.sequence(title: "twice") { seq in
            seq.task(title: "count", apply: { _ in counter.record(counter.all.count) }, revert: { _, _ in })
            seq.task(title: "again", apply: { _ in counter.record(counter.all.count) }, revert: { _, _ in })
        }
        let flow = manager.execute(title: "reuse") { flow in
            try await flow.perform(steps)
            try await flow.perform(steps)
        }
        try await flow.value
        #expect(counter.all == [0, 1, 2, 3], "both runs ran every child in order")
        let again = manager.execute(title: "reuse in another flow") { flow in try await flow.perform(steps) }
        try await again.value
        #expect(counter.all.count == 6)
    }

    @Test func nestedGroupInSequenceInGroupRollsBackAsAUnit() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let gate = Gate()
        let inLastStep = Gate()
        let flow = manager.execute(title: "nested") { flow in
            try await flow.group(title: "outer") { outer in
                outer.sequence(title: "middle") { middle in
                    middle.traced("a", trace)
                    middle.group(title: "inner") { inner in inner.traced("b", trace) }
                    middle.traced("c", trace)
                }
            }
            try await flow.task(title: "last", apply: { _ in inLastStep.open(); await gate.wait() }, revert: { _, _ in trace.record("revert last") })
        }
        await inLastStep.wait()
        flow.cancel()
        gate.open()
        await #expect(throws: CancellationError.self) { try await flow.value }
        #expect(trace.all == ["a", "b", "c", "revert last", "revert c", "revert b", "revert a"])
    }

    /// Children start at once and in any order, but are numbered in the order the group lists
    /// them, so every observer can show them that way.
    @Test func groupChildrenAreNumberedInTheGroupsOrder() async throws {
        let manager = TaskFlowManager()
        let log = EventLog(manager)
        let titles = (1...8).map { "child \($0)" }
        let flows = (0..<20).map { _ in
            manager.execute(title: "numbered") { flow in
                try await flow.group(title: "all") { group in
                    for title in titles { group.task(title: title, apply: { _ in await Task.yield() }) }
                }
            }
        }
        for flow in flows { try await flow.value }
        for flow in flows {
            #expect(await log.waitUntilFinished(flow.id))
            let children = log.events.compactMap { event -> StepInfo? in
                guard case .stepStarted(flow.id, let step) = event, step.parent != nil else { return nil }
                return step
            }
            #expect(children.sorted { $0.id < $1.id }.map(\.title) == titles)
        }
    }

    @Test func aFlowCancelReachesGroupChildrenAndStopsTheRestOfASequence() async throws {
        let manager = TaskFlowManager()
        let trace = Recorder<String>()
        let running = Recorder<String>()
        let flow = manager.execute(title: "cancel inside") { flow in
            try await flow.sequence(title: "seq") { seq in
                seq.task(title: "first", apply: { _ in trace.record("first") }, revert: { _, _ in trace.record("revert first") })
                seq.group(title: "pair") { group in
                    for side in ["left", "right"] {
                        group.task(title: side, apply: { task in
                            running.record(side)
                            while !task.isCancelled { await Task.yield() }
                            trace.record("\(side) saw cancel")
                        }, revert: { _, _ in trace.record("revert \(side)") })
                    }
                }
                seq.task(title: "third", apply: { _ in trace.record("third") }, revert: { _, _ in })
            }
        }
        #expect(await eventually { running.all.count == 2 }, "both children run")
        flow.cancel()
        await #expect(throws: CancellationError.self) { try await flow.value }
        // Both children saw the flow's cancel and finished normally, so both are reverted (in
        // either order: they ran in parallel); "third" never ran.
        let all = trace.all
        #expect(all.count == 6 && all.first == "first" && all.last == "revert first", "\(all)")
        #expect(Set(all.dropFirst().prefix(2)) == ["left saw cancel", "right saw cancel"], "\(all)")
        #expect(Set(all.dropFirst(3).prefix(2)) == ["revert left", "revert right"], "\(all)")
    }
}

extension CompositeBuilder {
    /// A child that records its apply and revert under `name`.
    func traced(_ name: String, _ trace: Recorder<String>) {
        task(title: name, apply: { _ in trace.record(name) }, revert: { _, _ in trace.record("revert \(name)") })
    }
}

extension TaskFlowManager {
    /// The step titled `title` of a live flow, as the engine last recorded it.
    fileprivate func step(_ title: String) -> StepSnapshot? {
        snapshot().flows.lazy.flatMap(\.steps).first { $0.info.title == title }
    }
}
