@testable import DashboardKit
import Foundation
@testable import TaskFlow  // LockEvent has no public initializer: fixtures build lock events directly.
import Testing

/// The warnings (tokio-console's lints, for flows and jobs): each fires from events at given
/// times on the model's clock, and goes away by itself once its condition ends.
@Suite("Model: warnings")
struct WarningsModelTests {
    static let writer = Fixture.info(3, "Migrate archive")

    static func reader(_ id: Int) -> FlowInfo { Fixture.info(id, "Report \(id)", .read) }

    /// The warning of `kind` the model shows now, if any.
    static func warning(_ kind: WarningKind, _ model: DashboardModel) -> DashboardWarning? {
        model.warnings.first { $0.kind == kind }
    }

    /// One read phase at `time`: a reader enters the idle lock, holds it a second and leaves.
    static func readPhase(_ model: inout DashboardModel, reader id: Int, at time: Duration) {
        let flow = reader(id)
        _ = model.apply(Fixture.lock(flow, .admitted, .read(count: 1), waiting: 1), at: time)
        _ = model.apply(Fixture.lock(flow, .released, .idle, waiting: 1), at: time + .seconds(1))
    }

    @Test func aWriterPassedByMoreReadPhasesThanTheLimitWarnsUntilItEntersTheLock() {
        var model = DashboardModel(scenario: "lock")
        _ = model.apply(.flowQueued(Self.writer), at: .zero)
        // A reader holds the lock when the writer comes: that phase began before it waited.
        _ = model.apply(Fixture.lock(Self.reader(10), .admitted, .read(count: 1), waiting: 0), at: .milliseconds(500))
        _ = model.apply(Fixture.lock(Self.writer, .enqueued, .read(count: 1), waiting: 1), at: .seconds(1))
        _ = model.apply(Fixture.lock(Self.reader(10), .released, .idle, waiting: 1), at: .milliseconds(1500))
        for phase in 1...3 { Self.readPhase(&model, reader: 10 + phase, at: .seconds(2 * phase)) }
        #expect(Self.warning(.starvedWriter, model) == nil, "3 read phases is the default limit, not past it")
        Self.readPhase(&model, reader: 20, at: .seconds(9))
        let warning = Self.warning(.starvedWriter, model)
        #expect(warning?.text == "writer starved of the lock: #3 \"Migrate archive\" 9.0s, 4 read phases")
        _ = model.apply(Fixture.lock(Self.writer, .admitted, .write(FlowID(3)), waiting: 0), at: .seconds(11))
        #expect(model.warnings.isEmpty, "admitted: it waits no more")
    }

    @Test func aWriterWaitingLongerThanTheLimitWarnsUntilItLeavesTheQueue() {
        var model = DashboardModel(scenario: "lock")
        let holder = Fixture.info(1, "Import books")
        _ = model.apply(Fixture.lock(holder, .admitted, .write(FlowID(1)), waiting: 0), at: .zero)
        _ = model.apply(Fixture.lock(Self.writer, .enqueued, .write(FlowID(1)), waiting: 1), at: .seconds(1))
        model.advance(to: .seconds(31))
        #expect(Self.warning(.starvedWriter, model) == nil, "30 s of waiting is the limit, not past it")
        model.advance(to: .seconds(32))
        #expect(Self.warning(.starvedWriter, model)?.rows == ["#3 \"Migrate archive\" 31.0s, 0 read phases"])
        _ = model.apply(Fixture.lock(Self.writer, .withdrawn, .write(FlowID(1)), waiting: 0), at: .seconds(33))
        #expect(model.warnings.isEmpty, "cancelled while waiting: gone from the queue")
    }

    /// A flow running a group whose one child reports progress now and then.
    static func stepModel() -> DashboardModel {
        var model = DashboardModel(scenario: "steps")
        let flow = FlowID(1)
        let events: [FlowEvent] = [
            .flowQueued(Fixture.info(1, "Sync shelves")), .statusChanged(flow, .running),
            .stepStarted(flow, Fixture.step(1, "Copy", .group)), .stepStarted(flow, Fixture.step(2, "Upload covers", parent: 1)),
        ]
        for event in events { _ = model.apply(event, at: .zero) }
        return model
    }

    @Test func aStepSilentPastTheLimitWarnsUntilItReportsProgressOrEnds() {
        var model = Self.stepModel()
        _ = model.apply(.progress(FlowID(1), StepID(2), 0.2), at: .seconds(50))
        model.advance(to: .seconds(110))
        #expect(model.warnings.isEmpty, "60 s since its last progress is the limit, not past it")
        model.advance(to: .seconds(125))
        #expect(Self.warning(.stalledStep, model)?.text == "step without progress: #1 \"Sync shelves\": Upload covers 1m15s",
                "the group is busy with its child: only the child is named")
        _ = model.apply(.progress(FlowID(1), StepID(2), 0.3), at: .seconds(126))
        #expect(model.warnings.isEmpty, "progress again")
        model.advance(to: .seconds(200))
        #expect(Self.warning(.stalledStep, model) != nil)
        _ = model.apply(.stepFinished(FlowID(1), StepID(2), .completed), at: .seconds(201))
        #expect(model.warnings.isEmpty, "its end is news from inside the group, which is not silent yet")
        _ = model.apply(.statusChanged(FlowID(1), .completed), at: .seconds(400))
        #expect(model.warnings.isEmpty, "a finished flow runs no step")
    }

    /// The model reads the steps only of flows with a step running since before the limit:
    /// a child started later in a group neither hides nor fakes an older child's silence.
    @Test func aGroupsOlderChildIsJudgedFromItsOwnStartAndTheYoungerFromItsOnceTheOlderEnds() {
        var model = Self.stepModel()
        _ = model.apply(.stepStarted(FlowID(1), Fixture.step(3, "Write index", parent: 1)), at: .seconds(100))
        model.advance(to: .seconds(130))
        #expect(Self.warning(.stalledStep, model)?.rows == ["#1 \"Sync shelves\": Upload covers 2m10s"])
        _ = model.apply(.stepFinished(FlowID(1), StepID(2), .completed), at: .seconds(140))
        model.advance(to: .seconds(160))
        #expect(model.warnings.isEmpty, "the index is 60 s silent: the limit, not past it")
        model.advance(to: .seconds(175))
        #expect(Self.warning(.stalledStep, model)?.rows == ["#1 \"Sync shelves\": Write index 1m15s"])
    }

    @Test func aFailedRevertWarnsWhileTheFlowIsListed() {
        var model = DashboardModel(scenario: "rollback", historyLimit: 1)
        let flow = FlowID(1)
        let deploy = Fixture.info(1, "Deploy")
        let step = Fixture.step(1, "Write config")
        let events: [FlowEvent] = [
            .flowQueued(deploy), .statusChanged(flow, .running), .stepStarted(flow, step),
            .stepFinished(flow, StepID(1), .completed), .statusChanged(flow, .rollingBack(.cancelled)), .stepReverting(flow, step),
        ]
        for event in events { _ = model.apply(event, at: .seconds(1)) }
        #expect(model.warnings.isEmpty, "a revert under way is no failure")
        _ = model.apply(.revertFailed(flow, step, "disk full"), at: .seconds(2))
        #expect(Self.warning(.failedRevert, model)?.text == "rollback incomplete: #1 \"Deploy\": Write config: disk full",
                "named while the rollback still runs")
        let failure = RevertFailure(step: step, error: DiskFull())
        _ = model.apply(.statusChanged(flow, .rollbackIncomplete(.cancelled, [failure])), at: .seconds(3))
        #expect(Self.warning(.failedRevert, model)?.count == 1)
        // Once the board's history drops it (a batch of 17 newer finished flows past a limit of 1).
        for id in 2...18 {
            _ = model.apply(.flowQueued(Self.reader(id)), at: .seconds(4))
            _ = model.apply(.statusChanged(FlowID(id), .completed), at: .seconds(4))
        }
        #expect(model.live.flow(flow) == nil && model.warnings.isEmpty, "no longer listed, no longer warned of")
    }

    @Test func thePushedOutUndoWarnsThatTheHistoryIsFullUntilAnUndoFreesAPlace() {
        var model = DashboardModel(scenario: "undo")
        for id in 1...2 {
            _ = model.apply(.flowQueued(Fixture.info(id, "Rename \(id)")), at: .seconds(id))
            _ = model.apply(.statusChanged(FlowID(id), .running), at: .seconds(id))
            _ = model.apply(.statusChanged(FlowID(id), .completed), at: .seconds(id))
        }
        #expect(model.warnings.isEmpty)
        _ = model.apply(.undoExpired(FlowID(1)), at: .seconds(2))
        #expect(Self.warning(.undoHistoryFull, model)?.text
            == "undo history full: #1 \"Rename 1\" and older flows can no longer be undone")
        _ = model.apply(.statusChanged(FlowID(2), .undoing), at: .seconds(3))
        _ = model.apply(.statusChanged(FlowID(2), .completed), at: .seconds(3))
        #expect(Self.warning(.undoHistoryFull, model) != nil, "an undo refused before any revert keeps its place")
        _ = model.apply(.statusChanged(FlowID(2), .undoing), at: .seconds(4))
        _ = model.apply(.statusChanged(FlowID(2), .undone), at: .seconds(5))
        #expect(model.warnings.isEmpty, "the undo ran: a place is free")
    }

    static func queuesModel() -> DashboardModel {
        var model = DashboardModel(scenario: "jobs")
        model.add(QueuesTab(queues: [QueuesViewTests.downloads, QueuesViewTests.disk]))
        return model
    }

    @Test func aPausedQueueWithJobsWaitingWarnsUntilResumedOrEmpty() {
        var model = Self.queuesModel()
        model.apply(.paused(queue: "Disk", true), at: .seconds(1))
        #expect(model.warnings.isEmpty, "paused with nothing waiting holds nothing up")
        model.apply(.added(QueuesViewTests.info(1, "Compact", queue: "Disk")), at: .seconds(2))
        model.apply(.added(QueuesViewTests.info(2, "Trim", queue: "Disk")), at: .seconds(2))
        #expect(Self.warning(.pausedQueue, model)?.text == "paused queue with jobs waiting: \"Disk\" 2 waiting")
        model.apply(.paused(queue: "Disk", false), at: .seconds(3))
        #expect(model.warnings.isEmpty, "resumed")
        model.apply(.paused(queue: "Disk", true), at: .seconds(4))
        #expect(Self.warning(.pausedQueue, model) != nil)
        model.apply(.finished(JobID(1), .cancelled), at: .seconds(5))
        model.apply(.finished(JobID(2), .cancelled), at: .seconds(5))
        #expect(model.warnings.isEmpty, "nothing waits any more")
    }

    @Test func aJobRetriedMoreThanTheLimitWarnsUntilItEnds() {
        var model = Self.queuesModel()
        let job = JobID(7)
        model.apply(.added(QueuesViewTests.info(7, "Fetch feed", attempts: 10)), at: .zero)
        for attempt in 1...4 {
            model.apply(.started(job, attempt: attempt), at: .seconds(attempt))
            #expect(model.warnings.isEmpty, "attempt \(attempt): \(attempt - 1) retries")
            model.apply(.attemptFailed(job, attempt: attempt, maxAttempts: 10, error: "HTTP 503", nextDelay: .seconds(1)),
                        at: .seconds(attempt) + .milliseconds(500))
        }
        #expect(Self.warning(.retriedJob, model)?.text == "job retried more than 3 times: job 7 \"Fetch feed\" (Downloads) 4 retries",
                "waiting for its fifth run: four retries")
        model.apply(.started(job, attempt: 5), at: .seconds(5))
        #expect(Self.warning(.retriedJob, model) != nil)
        model.apply(.finished(job, .succeeded), at: .seconds(6))
        #expect(model.warnings.isEmpty, "it ended")
    }

    @Test func aStoredJobRetriedMoreThanTheLimitWarnsWhileListedUnfinished() {
        var model = JobsViewModelTests.model()
        let retried = StoredJobRow(
            id: .init(9), kind: "send-email", state: .scheduled, retries: 5, dueAt: JobsViewModelTests.listedAt + 10,
            leaseOwner: nil, lastError: "HTTP 500", isRecovery: false, payload: "{}")
        model.updateStore(JobsViewModelTests.listing([retried]), listedAt: JobsViewModelTests.listedAt, time: .seconds(2))
        #expect(Self.warning(.retriedJob, model)?.rows == ["stored job 9 send-email 5 retries"])
        model.updateStore(JobsViewModelTests.listing([JobsViewModelTests.job(9, .failed)]), listedAt: JobsViewModelTests.listedAt, time: .seconds(3))
        #expect(model.warnings.isEmpty, "failed for good: the jobs view shows it failed")
    }

    @Test func aWorkerSilentPastItsLeaseWarnsUntilItsHeartbeatIsFresh() {
        var model = JobsViewModelTests.model()
        func listing(heartbeat: Date) -> StoreListing {
            let process = WorkerProcessRow(
                host: "batch-7", pid: 91, workers: 16, runningJobs: 0, lease: .seconds(30), lastHeartbeat: heartbeat, isThisStore: false)
            return StoreListing(rows: [], counts: [:], processes: [process])
        }
        model.updateStore(listing(heartbeat: JobsViewModelTests.listedAt - 25), listedAt: JobsViewModelTests.listedAt, time: .seconds(1))
        model.advance(to: .seconds(6))
        #expect(model.warnings.isEmpty, "30 s old: at its lease, not past it")
        model.advance(to: .seconds(7))
        #expect(Self.warning(.silentWorker, model)?.text == "worker process silent: batch-7:91 silent 31.0s",
                "the model's clock ages the heartbeat between two listings")
        model.updateStore(listing(heartbeat: JobsViewModelTests.listedAt + 6), listedAt: JobsViewModelTests.listedAt + 7, time: .seconds(8))
        #expect(model.warnings.isEmpty, "a fresh heartbeat")
    }

    @Test func thresholdsInTheModelDecideWhenAWarningFires() {
        var model = Self.stepModel()
        model.warningThresholds = WarningThresholds(stepStall: .seconds(5))
        model.advance(to: .seconds(6))
        #expect(Self.warning(.stalledStep, model)?.rows == ["#1 \"Sync shelves\": Upload covers 6.0s"])
        model.warningThresholds = WarningThresholds()
        #expect(model.warnings.isEmpty)
    }

    @Test func warningsComeInOrderOfWhatMayHaveBrokenSomethingFirst() {
        var model = Self.stepModel()
        _ = model.apply(.undoExpired(FlowID(1)), at: .seconds(1))
        model.advance(to: .seconds(100))
        #expect(model.warnings.map(\.kind) == [.stalledStep, .undoHistoryFull])
    }
}

/// A revert's error.
private struct DiskFull: Error {}
