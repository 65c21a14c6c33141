@testable import DashboardKit
import TaskFlow
import Testing

/// The header, status bar and help keep what matters on screen down to the minimum size.
@Suite("View: header, status bar and help at ordinary and minimum widths")
struct ChromeViewSnapshotTests {
    /// The busy fixture with #1 undone, one flow failed, one cancelled and one rolling back.
    private func eventfulModel(scenario: String) -> DashboardModel {
        var events = Fixture.busy
        events += [
            .flowQueued(Fixture.info(4, "Fail")), .statusChanged(FlowID(4), .rollbackIncomplete(.cancelled, [])),
            .flowQueued(Fixture.info(5, "Stop")), .statusChanged(FlowID(5), .cancelled),
            .flowQueued(Fixture.info(6, "Back")), .statusChanged(FlowID(6), .rollingBack(.cancelled)),
            .statusChanged(FlowID(1), .undone),
        ]
        var model = DashboardModel(scenario: scenario)
        for (index, event) in events.enumerated() { _ = model.apply(event, at: .milliseconds(100 * index)) }
        return model
    }

    private func header(_ model: DashboardModel, width: Int) -> String {
        let text = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: width, height: 24)).text
        return String(text.prefix { $0 != "\n" })
    }

    @Test func at120ColumnsEveryCountShowsAndALongNameGivesWay() {
        let model = eventfulModel(scenario: String(repeating: "nightly import ", count: 8))
        #expect(header(model, width: 120) == Self.expected120)
    }

    @Test func withRoomTheCountersSpellTheStatusNames() {
        let model = eventfulModel(scenario: "nightly import")
        #expect(header(model, width: 160) == " TaskFlow · nightly import  WRITE Migrate archive  queue 1  waiting 1 running 1 "
            + "rolling back 1 completed 0 failed 1 cancelled 1 undone 1")
    }

    @Test func aWideFlowListShowsEveryStatusNameWhole() {
        let text = DashboardView(glyphs: .unicode).render(eventfulModel(scenario: "x"), size: GridSize(width: 100, height: 30)).text
        #expect(text.contains("│#4   W Fail") && text.contains(" rollback incomplete "))
        let narrow = DashboardView(glyphs: .unicode).render(eventfulModel(scenario: "x"), size: GridSize(width: 99, height: 30)).text
        #expect(narrow.contains(" rollback in… "), "below 100 columns the status column cuts the longest name")
    }

    @Test func at60ColumnsCountsLockQueueAndPausedShow() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("p"))
        #expect(header(model, width: 60) == " PAUSED  WRITE Migrate archi…  queue 1  wait 1 run 1 compl 1")
        var eventful = eventfulModel(scenario: "x")
        _ = eventful.handle(.character("p"))
        #expect(header(eventful, width: 60) == " PAUSED  WRITE Migrate archi…  queue 1  w1 r1 b1 c0 f1 x1 u1",
                "with every category counting, initials keep them all")
    }

    /// The key table of docs/Dashboard.md (the README has a short one) as the help overlay words
    /// it, written out here rather than read from the code's tables, so that a key dropped from a
    /// table fails the test: those of every view, then each view's own.
    static let everyViewKeys: [(keys: String, action: String)] = [
        ("PgUp/PgDn · L", "scroll the event log · L: search it"),
        ("Tab", "views: flows, job queues, stored jobs"),
        ("p", "pause / resume the view (not the work)"),
        ("t", "next theme"),
        ("?", "this help (any key closes it)"),
        ("q", "quit after rolling back; q again: now"),
    ]
    static let flowsKeys: [(keys: String, action: String)] = [
        ("↑ / k, ↓ / j", "select a flow; scroll steps in detail"),
        ("Home / End", "select the first / the last flow"),
        ("Enter", "focus the flow list / the detail pane"),
        ("c", "cancel the flow: its steps roll back"),
        ("C", "cancel every active flow listed"),
        ("u, then y / n", "undo a completed write flow"),
        ("/ · < > i", "filter (Esc clears) · sort · invert"),
    ]
    static let queuesKeys: [(keys: String, action: String)] = [
        ("↑ / k, ↓ / j", "select a queue or a job"),
        ("Home / End", "select the first / the last line"),
        ("c", "cancel the job"),
        ("r", "run a failed or cancelled job again"),
        ("P", "pause / resume the job's queue"),
        ("C, R", "cancel / retry every job listed"),
        ("/ · < > i", "filter (Esc clears) · sort · invert"),
    ]
    static let storeKeys: [(keys: String, action: String)] = [
        ("↑ / k, ↓ / j", "select a job"),
        ("Home / End", "select the first / the last job"),
        ("c, then y / n", "remove the job from the store"),
        ("r", "queue the failed job again now"),
        ("w", "wake the parked jobs"),
        ("C, R", "remove / retry every job listed"),
        ("/ · < > i", "filter (Esc clears) · sort · invert"),
    ]
    /// The key a store source contributes: the outbox demo's network.
    static let networkKey = (keys: "n", action: "switch the network: up / down")

    @Test func theStatusBarKeepsHelpAndQuitAtTheMinimumSize() {
        let text = DashboardView(glyphs: .ascii).render(Fixture.model(Fixture.busy), size: DashboardLayout.minimum).text
        #expect(text.split(separator: "\n").last?.hasPrefix(" ? help  q quit ") == true)
    }

    @Test func theStatusBarHintsTheDocumentedKeys() {
        let text = DashboardView(glyphs: .unicode).render(Fixture.model(Fixture.busy), size: GridSize(width: 120, height: 30)).text
        let bar = text.split(separator: "\n").last.map(String.init) ?? ""
        #expect(bar == " ? help  q quit  ↑↓ select  Enter detail  c cancel  C cancel all  u undo  / filter  L log  p pause  t theme")
    }

    /// The busy fixture with job queues and a job store whose source has the network switch:
    /// `Tab` shows each view in turn.
    private func modelWithEveryView() -> DashboardModel {
        var model = Fixture.model(Fixture.busy)
        model.add(QueuesTab(queues: [QueueDescription(title: "Downloads", maxConcurrent: 2)]))
        model.add(StoreTab(name: "jobs.sqlite"))
        let network = StoreSwitch(key: "n", name: "network", isOn: true, on: "up", off: "down")
        model.updateStore(StoreListing(rows: [], counts: [:]), switches: [network], listedAt: .now, time: .seconds(1))
        return model
    }

    @Test func helpShowsEveryKeyAndActionOfTheShownViewAtTheMinimumSize() {
        var model = modelWithEveryView()
        for viewKeys in [Self.flowsKeys, Self.queuesKeys, Self.storeKeys + [Self.networkKey]] {
            _ = model.handle(.character("?"))
            let text = DashboardView(glyphs: .unicode).render(model, size: DashboardLayout.minimum).text
            let lines = text.split(separator: "\n")
            for entry in Self.everyViewKeys + viewKeys {
                #expect(lines.contains { $0.contains(entry.keys) && $0.contains(entry.action) }, "help of the \(model.shownTab.name) view shows \(entry.keys)")
            }
            _ = model.handle(.escape)
            _ = model.handle(.tab)
        }
    }

    @Test func theCommandLineHelpListsTheDocumentedKeys() {
        for entry in Self.everyViewKeys + Self.flowsKeys + Self.queuesKeys + Self.storeKeys {
            #expect(KeyMap.summary.contains("\(entry.keys): \(entry.action)"), "--help lists \(entry.keys)")
        }
    }

    static let expected120 =
        " TaskFlow · nightly import nightly… WRITE Migrate archive  queue 1  wait 1 run 1 back 1 compl 0 fail 1 cancel 1 undone 1"
}
