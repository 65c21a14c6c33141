import Testing
@testable import TaskFlowScenario

/// One test per kind of mistake: each is reported once, as `file:line:column: message`, at the
/// key or value a person would fix.
@Suite struct ValidationTests {
    @Test func tomlSyntaxErrorKeepsTOMLKitsPosition() throws {
        let found = try #require(problem(in: "name = \"Test\"\nseed = = 3\n"))
        #expect(found.position?.line == 2)
        #expect(found.description.hasPrefix("test.toml:2:"))
    }

    @Test func unknownTopLevelKey() throws {
        let found = try #require(problem(in: "nmae = \"x\"\n" + scenario(step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 1, column: 1))
        #expect(found.message.contains("unknown key 'nmae'"))
    }

    @Test func unknownKeyInsideAnInlineTable() throws {
        let step = "group = \"G\"\nsteps = [{ task = \"A\", duration = \"1s\", durtion = \"2s\" }]"
        let found = try #require(problem(in: scenario(step: step)))
        #expect(found.position == SourcePosition(line: 7, column: 41))
        #expect(found.message.contains("unknown key 'durtion' in task step 'A'"))
    }

    @Test func wrongTypePointsAtTheValue() throws {
        let found = try #require(problem(in: scenario(flow: "start = 3", step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 4, column: 9))
        #expect(found.message.contains("'start' must be a duration like"))
        #expect(found.message.hasSuffix("not an integer"))
    }

    @Test func badDuration() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"3 sec\"")))
        #expect(found.position == SourcePosition(line: 7, column: 12))
        #expect(found.message == "'duration' must be a duration like \"300ms\", \"1.5s\" or \"2m\", not \"3 sec\"")
    }

    @Test func revertInAReadFlow() throws {
        let step = "task = \"T\"\nduration = \"1s\"\nrevert = \"1s\""
        let found = try #require(problem(in: scenario(flow: "access = \"read\"", step: step)))
        #expect(found.position == SourcePosition(line: 8, column: 1))
        #expect(found.message.contains("read flows change nothing"))
    }

    @Test func emptyGroup() throws {
        let found = try #require(problem(in: scenario(step: "group = \"Uploads\"\nsteps = []")))
        #expect(found.position == SourcePosition(line: 7, column: 9))
        #expect(found.message == "group step 'Uploads' has no steps: it needs at least one")
    }

    @Test func emptySequenceWithoutSteps() throws {
        let found = try #require(problem(in: scenario(step: "sequence = \"Post\"")))
        #expect(found.position == SourcePosition(line: 5, column: 1))
        #expect(found.message.contains("sequence step 'Post' needs 'steps'"))
    }

    @Test func failAtOutsideZeroToOne() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"1s\"\nfail_at = 1.5")))
        #expect(found.position == SourcePosition(line: 8, column: 11))
        #expect(found.message == "'fail_at' must be between 0 and 1, not 1.5")
    }

    @Test func failAtAndFailChanceTogether() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"1s\"\nfail_at = 0.5\nfail_chance = 0.5")))
        #expect(found.position == SourcePosition(line: 9, column: 1))
        #expect(found.message.contains("either 'fail_at' or 'fail_chance'"))
    }

    @Test func missingFlowTitleFallsBackToTheFlowHeader() throws {
        let text = "name = \"Test\"\n\n[[flow]]\naccess = \"write\"\n[[flow.step]]\ntask = \"T\"\nduration = \"1s\""
        let found = try #require(problem(in: text))
        #expect(found.position == SourcePosition(line: 3, column: 1))
        #expect(found.message == "a flow needs 'title'")
    }

    @Test func stepWithoutAKind() throws {
        let found = try #require(problem(in: scenario(step: "duration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 5, column: 1))
        #expect(found.message.contains("a step needs a key naming its kind"))
    }

    @Test func stepWithTwoKinds() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"1s\"\nmain = \"M\"")))
        #expect(found.position == SourcePosition(line: 6, column: 1))
        #expect(found.message.contains("both 'main' and 'task'"))
    }

    @Test func updateInAReadFlow() throws {
        let found = try #require(problem(in: scenario(flow: "access = \"read\"", step: "update = \"U\"\nset = { a = 1 }")))
        #expect(found.position == SourcePosition(line: 6, column: 1))
        #expect(found.message.contains("only write flows may have them"))
    }

    @Test func updateInsideAGroup() throws {
        let found = try #require(problem(in: scenario(step: "group = \"G\"\nsteps = [\n  { update = \"U\", set = { a = 1 } },\n]")))
        #expect(found.position == SourcePosition(line: 8, column: 5))
        #expect(found.message.contains("only at a flow's top level"))
    }

    @Test func mainDurationInsideASequence() throws {
        let found = try #require(problem(in: scenario(step: "sequence = \"S\"\nsteps = [{ main = \"M\", duration = \"1s\" }]")))
        #expect(found.position == SourcePosition(line: 7, column: 24))
        #expect(found.message.contains("runs at once on the main actor"))
    }

    @Test func taskInsideATask() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"1s\"\nsteps = [{ task = \"Inner\", duration = \"1s\" }]")))
        #expect(found.position == SourcePosition(line: 8, column: 12))
        #expect(found.message.contains("only main steps are allowed there"))
    }

    @Test func mainRevertWithADuration() throws {
        let found = try #require(problem(in: scenario(step: "main = \"M\"\nrevert = \"1s\"")))
        #expect(found.position == SourcePosition(line: 7, column: 10))
        #expect(found.message.contains("write revert = true"))
    }

    @Test func progressOnAMainStepExplainsWhy() throws {
        let found = try #require(problem(in: scenario(step: "main = \"M\"\nprogress = true")))
        #expect(found.position == SourcePosition(line: 7, column: 1))
        #expect(found.message == "unknown key 'progress' in main step 'M'; only task steps report progress")
    }

    @Test func everyWithoutTimes() throws {
        let found = try #require(problem(in: scenario(flow: "every = \"1s\"", step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 4, column: 1))
        #expect(found.message.contains("'every' needs 'times'"))
    }

    @Test func accessOtherThanReadOrWrite() throws {
        let found = try #require(problem(in: scenario(flow: "access = \"exclusive\"", step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 4, column: 10))
        #expect(found.message == "'access' must be \"read\" or \"write\", not \"exclusive\"")
    }

    @Test func stateValueOfTheWrongType() throws {
        let found = try #require(problem(in: scenario(step: "update = \"U\"\nset = { when = 1979-05-27 }")))
        #expect(found.position == SourcePosition(line: 7, column: 16))
        #expect(found.message.contains("state values must be"))
    }

    @Test func scenarioWithoutFlows() throws {
        let found = try #require(problem(in: "name = \"Nothing\"\n"))
        #expect(found.position == SourcePosition.start)
        #expect(found.message.contains("the scenario needs 'flow'"))
    }

    @Test func everyProblemIsReportedInFileOrder() {
        let text = scenario(flow: "start = \"soon\"", step: "task = \"T\"\nduration = \"1 s\"\nfail_at = 2")
        let found = problems(in: text)
        #expect(found.map { $0.position?.line } == [4, 7, 8])
        #expect(found.allSatisfy { $0.description.split(separator: "\n").count == 1 })
    }
}

/// Values that used to pass validation and crash later (formatting, or overflowing at run time).
extension ValidationTests {
    @Test func durationLongerThanTwentyFourHours() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"99999999999999999999s\"")))
        #expect(found.position == SourcePosition(line: 7, column: 12))
        #expect(found.message == "'duration' must be at most 1440m (24 hours), not \"99999999999999999999s\"")
    }

    @Test func everyLongerThanTwentyFourHoursIsReportedOnce() throws {
        let flow = "every = \"99999999999999999999s\"\ntimes = 3"
        let found = try #require(problem(in: scenario(flow: flow, step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 4, column: 9))
        #expect(found.message.hasPrefix("'every' must be at most 1440m (24 hours)"))
    }

    @Test func timesAboveTheCap() throws {
        let flow = "every = \"1s\"\ntimes = 9223372036854775807"
        let found = try #require(problem(in: scenario(flow: flow, step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 5, column: 9))
        #expect(found.message == "'times' must be at most \(Repetition.maximumTimes), not 9223372036854775807")
    }

    @Test func lastSubmissionStartingAfterTwentyFourHours() throws {
        let flow = "start = \"500m\"\nevery = \"1000m\"\ntimes = 2"
        let found = try #require(problem(in: scenario(flow: flow, step: "task = \"T\"\nduration = \"1s\"")))
        #expect(found.position == SourcePosition(line: 6, column: 9))
        #expect(found.message == "the last of 2 submissions would start at 1500m, after 1440m (24 hours): "
            + "lower 'start', 'every' or 'times'")
        // Right at the limit is fine.
        #expect(problems(in: scenario(flow: "start = \"440m\"\nevery = \"1000m\"\ntimes = 2", step: "main = \"M\"")).isEmpty)
    }

    /// The largest values validation lets through still summarize without trapping.
    @Test func theLargestValidScenarioSummarizes() throws {
        let flow = "start = \"1440m\"\ncancel_after = \"1440m\""
        let steps = "task = \"T\"\nduration = \"1440m\"\nsteps = [{ main = \"M\", duration = \"1440m\" }]"
        let slow = try Scenario.parse(scenario(flow: flow, step: steps))
        #expect(ScenarioSummary(slow).totalDuration == .seconds(3 * 86_400))
        let many = try Scenario.parse(scenario(flow: "every = \"8s\"\ntimes = 10000", step: "main = \"M\""))
        #expect(ScenarioSummary(many).submissions == 10_000)
        #expect(ScenarioSummary(many).description.contains("79992s"))
    }

    /// One mistake, one error: the revert is rejected as a key, and not then also read as a
    /// main step's revert, which told the user to write `revert = true` where no revert may be.
    @Test func revertOnAReadFlowsMainStepIsReportedOnce() throws {
        let step = "main = \"M\"\nduration = \"1s\"\nrevert = \"1s\""
        let found = try #require(problem(in: scenario(flow: "access = \"read\"", step: step)))
        #expect(found.position == SourcePosition(line: 8, column: 1))
        #expect(found.message.contains("read flows change nothing"))
    }
}

extension ValidationTests {
    @Test func syntaxErrorMessageIsOneReadableLine() throws {
        let found = try #require(problem(in: "name = \"Test\"\n[[flow]\n"))
        #expect(found.description.split(separator: "\n").count == 1)
        #expect(found.position?.line == 2)
    }
}
