@testable import DashboardKit
import TaskFlow
import TaskFlowTestSupport
import Testing

/// Numbers over time from engine events at given times on the model's clock: percentiles per
/// title, the cap on titles, per-second counts rolling over, lock waits, job runs.
@Suite("Model: run statistics")
struct RunStatisticsTests {
    /// A flow of `title` that runs from `start` for `duration`, then ends `completed` (or as
    /// `end` says), applied to `model`.
    static func run(
        _ id: Int, _ title: String, from start: Duration, for duration: Duration, end: FlowStatus = .completed,
        into model: inout DashboardModel
    ) {
        _ = model.apply(.flowQueued(Fixture.info(id, title)), at: start)
        _ = model.apply(.statusChanged(FlowID(id), .running), at: start)
        _ = model.apply(.statusChanged(FlowID(id), end), at: start + duration)
    }

    /// Within the histogram's precision (two significant digits: 1%).
    static func close(_ actual: Duration, _ expected: Duration) -> Bool {
        abs(actual.seconds - expected.seconds) <= expected.seconds / 100
    }

    @Test func percentilesOfATitleAreRightWithinOnePercent() {
        var model = DashboardModel(scenario: "stats")
        // 1 ms ... 100 ms, shuffled by a fixed stride so the order does not matter.
        for index in 0..<100 {
            let milliseconds = (index * 37) % 100 + 1
            Self.run(index + 1, "Import", from: .seconds(index), for: .milliseconds(milliseconds), into: &model)
        }
        let runs = model.statistics.flows["Import"]
        #expect(runs?.count == 100)
        #expect(runs.map { Self.close($0.percentile(50), .milliseconds(50)) } == true)
        #expect(runs.map { Self.close($0.percentile(90), .milliseconds(90)) } == true)
        #expect(runs.map { Self.close($0.percentile(99), .milliseconds(99)) } == true)
        #expect(runs?.range == .milliseconds(1) ... .milliseconds(100))
        #expect(model.statistics.flows["Export"] == nil)
    }

    @Test func aRunIsTimedFromRunningNotFromSubmissionAndAnUndoIsNoRun() {
        var model = DashboardModel(scenario: "stats")
        _ = model.apply(.flowQueued(Fixture.info(1, "Import")), at: .zero)
        _ = model.apply(.statusChanged(FlowID(1), .running), at: .seconds(5))
        _ = model.apply(.statusChanged(FlowID(1), .completed), at: .seconds(7))
        _ = model.apply(.statusChanged(FlowID(1), .undoing), at: .seconds(8))
        _ = model.apply(.statusChanged(FlowID(1), .undone), at: .seconds(9))
        #expect(model.statistics.flows["Import"]?.count == 1)
        #expect(model.statistics.flows["Import"]?.percentile(100) == .seconds(2))
        #expect(model.statistics.completions.total(endingAt: .seconds(9)) == 1)
    }

    @Test func stepsAreTimedByTitleAcrossFlows() {
        var model = DashboardModel(scenario: "stats")
        for id in 1...2 {
            let start = Duration.seconds(10 * id)
            _ = model.apply(.flowQueued(Fixture.info(id, "Sync \(id)")), at: start)
            _ = model.apply(.stepStarted(FlowID(id), Fixture.step(1, "Upload")), at: start)
            _ = model.apply(.stepFinished(FlowID(id), StepID(1), id == 1 ? .completed : .failed("disk full")), at: start + .seconds(id))
        }
        let upload = model.statistics.steps["Upload"]
        #expect(upload?.count == 2)
        #expect(upload?.range == .seconds(1) ... .seconds(2))
    }

    @Test func pastTheCapTheTitleUpdatedLeastRecentlyIsEvicted() {
        var model = DashboardModel(scenario: "stats")
        let capacity = TitledHistograms.defaultCapacity
        for index in 0..<capacity {
            Self.run(index + 1, "Flow \(index)", from: .seconds(index), for: .milliseconds(10), into: &model)
        }
        // "Flow 0" runs again: now "Flow 1" is the stalest.
        Self.run(capacity + 1, "Flow 0", from: .seconds(capacity), for: .milliseconds(10), into: &model)
        Self.run(capacity + 2, "Newcomer", from: .seconds(capacity + 1), for: .milliseconds(10), into: &model)
        let flows = model.statistics.flows
        #expect(flows.count == capacity)
        #expect(flows["Newcomer"]?.count == 1)
        #expect(flows["Flow 0"]?.count == 2)
        #expect(flows["Flow 1"] == nil)
        #expect(flows["Flow 2"] != nil)
    }

    @Test func completionsAndFailuresPerSecondRollOverAfterAMinute() {
        var model = DashboardModel(scenario: "stats")
        Self.run(1, "A", from: .zero, for: .milliseconds(200), into: &model)
        Self.run(2, "A", from: .zero, for: .milliseconds(700), into: &model)
        Self.run(3, "B", from: .seconds(2), for: .milliseconds(500), end: .failed(Boom()), into: &model)
        Self.run(4, "B", from: .seconds(3), for: .milliseconds(100), end: .cancelled, into: &model)
        let stats = model.statistics
        let completions = stats.completions.counts(endingAt: .seconds(3))
        #expect(completions.count == 60)
        #expect(completions.suffix(4) == [2, 0, 0, 0])
        #expect(stats.failures.counts(endingAt: .seconds(3)).suffix(4) == [0, 0, 1, 0])
        // 59 s later the first second is still the oldest shown; a second after, it is gone.
        #expect(stats.completions.counts(endingAt: .seconds(59)).first == 2)
        #expect(stats.completions.total(endingAt: .seconds(60)) == 0)
        #expect(stats.failures.total(endingAt: .seconds(61)) == 1)
        #expect(stats.failures.total(endingAt: .seconds(62)) == 0)
        // A ring: a completion 90 s on leaves nothing of the first minute behind.
        Self.run(5, "A", from: .seconds(90), for: .zero, into: &model)
        #expect(model.statistics.completions.total(endingAt: .seconds(90)) == 1)
        #expect(model.statistics.completions.counts(endingAt: .seconds(90)).last == 1)
        #expect(model.isAnimated, "the sparklines move for a minute after a run ended")
        model.advance(to: .seconds(150))
        #expect(!model.isAnimated)
    }

    @Test func lockWaitsCountFromJoiningTheQueueToEnteringAndZeroForAnAtOnceEntry() {
        var model = DashboardModel(scenario: "stats")
        let first = Fixture.info(1, "Import"), second = Fixture.info(2, "Report", .read), third = Fixture.info(3, "Purge")
        let events: [(Duration, FlowEvent)] = [
            (.zero, Fixture.lock(first, .admitted, .write(FlowID(1)), waiting: 0)),
            (.seconds(1), Fixture.lock(second, .enqueued, .write(FlowID(1)), waiting: 1)),
            (.seconds(1), Fixture.lock(third, .enqueued, .write(FlowID(1)), waiting: 2)),
            (.seconds(2), Fixture.lock(third, .withdrawn, .write(FlowID(1)), waiting: 1)),
            (.seconds(3), Fixture.lock(first, .released, .idle, waiting: 1)),
            (.seconds(3), Fixture.lock(second, .admitted, .read(count: 1), waiting: 0)),
        ]
        for (time, event) in events { _ = model.apply(event, at: time) }
        let waits = model.board.lock.waits.histogram
        #expect(waits.count == 2, "the withdrawn flow never entered")
        #expect(waits.percentile(50) == .zero)
        #expect(waits.percentile(99) == .seconds(2))
    }

    @Test func jobRunsAreTimedPerAttemptAndOnlyAFinalFailureCountsAsOne() {
        var model = DashboardModel(scenario: "jobs")
        model.add(QueuesTab(queues: [QueuesViewTests.downloads]), showing: true)
        let events: [(Duration, JobEvent)] = [
            (.zero, .added(QueuesViewTests.info(1, "Fetch", attempts: 2))),
            (.zero, .started(JobID(1), attempt: 1)),
            (.seconds(1), .attemptFailed(JobID(1), attempt: 1, maxAttempts: 2, error: "503", nextDelay: .seconds(1))),
            (.seconds(2), .started(JobID(1), attempt: 2)),
            (.seconds(5), .finished(JobID(1), .failed("503"))),
            (.seconds(5), .added(QueuesViewTests.info(2, "Fetch"))),
            (.seconds(5), .started(JobID(2), attempt: 1)),
            (.seconds(7), .finished(JobID(2), .succeeded)),
        ]
        for (time, event) in events { model.apply(event, at: time) }
        let stats = model.jobStatistics
        let fetch = stats?.jobs["Fetch"]
        #expect(fetch?.count == 3)
        #expect(fetch?.range == .seconds(1) ... .seconds(3))
        #expect(stats?.failures.counts(endingAt: .seconds(7)).suffix(3) == [1, 0, 0])
        #expect(stats?.completions.counts(endingAt: .seconds(7)).suffix(3) == [0, 0, 1])
    }

    @Test func aHistogramTakesTheSameMemoryHoweverManyRunsItCounts() {
        var histogram = DurationHistogram()
        for milliseconds in 0..<10_000 { histogram.record(.milliseconds(milliseconds)) }
        histogram.record(.seconds(200_000))
        histogram.record(.seconds(-1))
        #expect(histogram.count == 10_002)
        #expect(histogram.range == .zero ... DurationHistogram.longest, "beyond a day counts as a day, below zero as zero")
        #expect(histogram.distribution(buckets: 10).reduce(0, +) == 10_002)
    }
}
