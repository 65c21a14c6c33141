@testable import DashboardKit
import Foundation
import TaskFlow
import Testing

/// The jobs view's model: Tab, selection, and which key asks the store for what.
@Suite("Model: the jobs view")
struct JobsViewModelTests {
    static func job(_ id: Int64, _ state: StoredJobRow.State, due: Date? = nil, error: String? = nil) -> StoredJobRow {
        StoredJobRow(
            id: .init(id), kind: "send-email", state: state, retries: state == .scheduled ? 2 : 0, dueAt: due,
            leaseOwner: state == .running ? "host:812" : nil, lastError: error, isRecovery: false, payload: #"{"to":"a"}"#)
    }

    static let listedAt = Date(timeIntervalSince1970: 1_000_000)

    /// A listing of every one of `rows`.
    static func listing(_ rows: [StoredJobRow], more: Int = 0) -> StoreListing {
        var counts = rows.reduce(into: [StoredJobRow.State: Int]()) { $0[$1.state, default: 0] += 1 }
        counts[.pending, default: 0] += more
        return StoreListing(rows: rows, counts: counts)
    }

    /// A model with a store of a pending, a running, a scheduled and a failed job, on the jobs tab.
    static func model() -> DashboardModel {
        var model = DashboardModel(scenario: "jobs")
        model.add(StoreTab(name: "jobs.sqlite"))
        model.updateStore(
            listing([job(1, .pending), job(2, .running, due: listedAt + 30), job(3, .scheduled, due: listedAt + 4, error: "HTTP 500"),
                     job(4, .failed, error: "mailbox full")]),
            listedAt: listedAt, time: .seconds(1))
        _ = model.handle(.tab)
        return model
    }

    @Test func tabShowsTheJobsOnlyWithAStore() {
        var plain = DashboardModel(scenario: "x")
        #expect(plain.handle(.tab).isEmpty && plain.shownTab is FlowsTab)
        #expect(plain.notice == "no jobs to show: play a scenario with [[queue]] tables (taskflow demo jobs), or start with --store PATH")
        var model = Self.model()
        #expect(model.shownTab is StoreTab && model.store?.selectedJob?.id == 1)
        _ = model.handle(.tab)
        #expect(model.shownTab is FlowsTab)
    }

    @Test func eachKeyAsksTheStoreForWhatTheSelectedJobAllows() {
        var model = Self.model()
        #expect(model.handle(.character("c")).isEmpty && model.mode.question?.yes == [.cancelStoredJob(1)], "removing asks first")
        #expect(model.handle(.character("n")).isEmpty && model.mode == .normal && model.notice == "job 1 kept")
        _ = model.handle(.character("c"))
        #expect(model.handle(.character("y")) == [.cancelStoredJob(1)], "a pending job is removed once confirmed")
        _ = model.handle(.down)
        #expect(model.handle(.character("c")).isEmpty, "a running job is not")
        #expect(model.notice == "job 2 is running: it can be cancelled when its run ends")
        #expect(model.handle(.character("r")).isEmpty && model.notice == "job 2 is running: only a failed job can be retried")
        _ = model.handle(.end)
        #expect(model.store?.selectedJob?.id == 4 && model.offers(.character("r")))
        #expect(model.handle(.character("r")) == [.retryStoredJob(4)])
        #expect(model.handle(.character("w")) == [.wakeParkedJobs])
        #expect(model.handle(.home).isEmpty && model.store?.selectedJob?.id == 1 && !model.offers(.character("r")))
    }

    @Test func theSelectionStaysOnItsJobAcrossListings() {
        var model = Self.model()
        _ = model.handle(.down)
        model.updateStore(Self.listing([Self.job(2, .running), Self.job(5, .pending)]), listedAt: Self.listedAt + 1, time: .seconds(2))
        #expect(model.store?.selectedJob?.id == 2)
        model.updateStore(Self.listing([Self.job(1, .pending), Self.job(5, .pending), Self.job(6, .pending)]),
                          listedAt: Self.listedAt + 2, time: .seconds(3))
        #expect(model.store?.selectedJob?.id == 5, "a job that left leaves the cursor where it was, on the next job")
    }

    /// With `state:failed` typed, a retried job leaves what the list shows even though the
    /// store still lists it: the cursor goes to the next failed job, not to the hidden one.
    @Test func aSelectedJobTheFilterNoLongerShowsLeavesTheCursorOnTheNextShownJob() {
        var model = Self.model()
        let failed = [Self.job(1, .failed), Self.job(2, .failed), Self.job(3, .pending), Self.job(4, .failed)]
        model.updateStore(Self.listing(failed), listedAt: Self.listedAt + 1, time: .seconds(2))
        for key: Key in [.character("/")] + "state:failed".map(Key.character) + [.enter] { _ = model.handle(key) }
        _ = model.handle(.down)
        #expect(model.store?.selectedJob?.id == 2)
        let retried = [Self.job(1, .failed), Self.job(2, .pending), Self.job(3, .pending), Self.job(4, .failed)]
        model.updateStore(Self.listing(retried), listedAt: Self.listedAt + 2, time: .seconds(3))
        #expect(model.store?.selectedJob?.id == 4, "job 2 is pending now: hidden by the filter")
        model.updateStore(Self.listing([Self.job(1, .failed), Self.job(3, .pending)]), listedAt: Self.listedAt + 3, time: .seconds(4))
        #expect(model.store?.selectedJob?.id == 1, "no shown job after it: the one before")
    }

    @Test func theViewShowsStatesReasonsAndARunningCountdown() {
        var model = Self.model()
        _ = model.handle(.end)
        model.advance(to: .seconds(2))   // one second after the listing
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 30)).text
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines[1].hasPrefix("┌─ Jobs — jobs.sqlite — pending 1 — running 1 — scheduled 1 — failed 1 — Tab: flows "))
        #expect(lines.contains { $0.contains("#3     send-email        scheduled 2       next attempt in 3.0s: HTTP 500") })
        #expect(lines.contains { $0.contains("#2     send-email        running   0       leased by host:812, lease ends in 29.0s") })
        #expect(lines.contains { $0.contains("#4     send-email        failed    0       mailbox full") })
        #expect(lines.contains { $0.contains("┌─ Job #4 — failed") } && lines.contains { $0.contains("last error mailbox full") })
    }

    @Test func aStoreLargerThanTheListingSaysHowManyItLeftOut() {
        var model = Self.model()
        model.updateStore(Self.listing([Self.job(1, .pending)], more: 999_999), listedAt: Self.listedAt, time: .seconds(2))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 30)).text
        #expect(text.contains("Jobs — jobs.sqlite — pending 1000000 — Tab: flows"))
        #expect(text.contains("… and 999999 newer jobs (the oldest 1 are listed)"))
    }

    @Test func longIdsWidenTheirColumnInsteadOfBeingCut() {
        var model = Self.model()
        model.updateStore(Self.listing([Self.job(7, .pending), Self.job(12_345_678, .failed, error: "mailbox full")]),
                          listedAt: Self.listedAt, time: .seconds(2))
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 100, height: 30)).text
        #expect(text.contains("│#7        send-email        pending   0"))
        #expect(text.contains("│#12345678 send-email        failed    0       mailbox full"))
    }

    @Test func theSidePaneListsWorkerProcessesAndWarnsOfASilentOne() throws {
        var model = Self.model()
        let processes = [
            WorkerProcessRow(host: "app-1.eu-west.example.com", pid: 4812, workers: 4, runningJobs: 3, lease: .seconds(30),
                             lastHeartbeat: Self.listedAt - 2, isThisStore: true),
            WorkerProcessRow(host: "batch-7.example.com", pid: 91, workers: 16, runningJobs: 0, lease: .seconds(30),
                             lastHeartbeat: Self.listedAt - 25, isThisStore: false),
        ]
        model.updateStore(StoreListing(rows: [Self.job(1, .pending)], counts: [.pending: 1], processes: processes),
                          listedAt: Self.listedAt, time: .seconds(1))
        model.advance(to: .seconds(7))   // six seconds after the listing: the second one is past its lease
        let grid = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 40))
        let lines = grid.text.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.contains("┌─ Worker processes (2) ") }, "in place of the lock")
        #expect(!lines.contains { $0.contains("┌─ Lock") })
        #expect(lines.contains { $0.contains("││host            pid     jobs   heartbeat    │") })
        #expect(lines.contains { $0.contains("││app-1.e… (this) 4812    3/4    8.0s ago     │") })
        #expect(lines.contains { $0.contains("││batch-7.exampl… 91      0/16   silent 31.0s │") })
        let silent = try #require(lines.firstIndex { $0.contains("silent 31.0s") })
        let line = lines[silent]
        let column = line.distance(from: line.startIndex, to: try #require(line.range(of: "silent")).lowerBound)
        #expect(grid[column, silent].role == .statusFailed, "a silent process is a warning")
        #expect(processes[1].heartbeatText(age: .seconds(3540.4)) == "silent 3540s", "whole seconds from a minute on")
    }

    @Test func aStoreWithoutWorkersSaysSo() {
        let model = Self.model()
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 40)).text
        #expect(text.contains("Worker processes (0)") && text.contains("no process runs workers on this store"))
    }

    @Test func nTwiceSwitchesTheConditionBackBeforeTheNextListing() {
        var model = Self.model()
        model.updateStore(Self.listing([Self.job(1, .pending)]), switches: [StoreSwitch(key: "n", name: "network", isOn: true, on: "up", off: "down")],
                          listedAt: Self.listedAt, time: .seconds(2))
        #expect(model.handle(.character("n")) == [.flipStoreSwitch("n")] && model.notice == "network down")
        #expect(model.handle(.character("n")) == [.flipStoreSwitch("n")] && model.notice == "network up")
    }
}

/// Tests write a stored job's id as the number users type; the dashboard itself only ever gets
/// one from a store's listing.
extension StoredJobRow.ID: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int64) { self.init(value) }
}
