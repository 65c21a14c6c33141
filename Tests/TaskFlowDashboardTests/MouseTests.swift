@testable import DashboardKit
import Foundation
import TaskFlow
import TaskFlowDashboard
import Testing

/// The mouse as a user meets it (btop, htop): the frame knows where it drew each row, heading,
/// view title and key hint; a click there selects, sorts, switches or acts as the key; the wheel
/// scrolls the pane under it; `--no-mouse` and the preferences decide whether the terminal is
/// asked for the mouse at all.
@Suite("Mouse: hit map, clicks, wheel, on or off")
struct MouseTests {
    static let size = GridSize(width: 120, height: 40)

    /// Five flows (#1 … #5, #3 "Build report"), a stored jobs view beside them, the model told
    /// the screen's size.
    static var model: DashboardModel {
        var model = Fixture.model([
            .flowQueued(Fixture.info(1, "Import books")), .statusChanged(FlowID(1), .completed),
            .flowQueued(Fixture.info(2, "Import covers")), .statusChanged(FlowID(2), .running),
            .flowQueued(Fixture.info(3, "Build report", .read)), .statusChanged(FlowID(3), .running),
            .flowQueued(Fixture.info(4, "Archive mail")), .statusChanged(FlowID(4), .waiting),
            .flowQueued(Fixture.info(5, "Send mail", .read)), .statusChanged(FlowID(5), .completed),
        ])
        model.add(StoreTab(name: "jobs.sqlite"))
        model.resize(PaneRows(layoutOf: size))
        return model
    }

    static func render(_ model: DashboardModel) -> CellGrid {
        DashboardView(glyphs: .unicode).render(model, size: size)
    }

    /// The row and column where `text` first shows on `grid`'s line `y` (or any line).
    static func find(_ text: String, in grid: CellGrid, line: Int? = nil) -> (x: Int, y: Int)? {
        let lines = grid.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for (y, row) in lines.enumerated() where line == nil || line == y {
            // The grid's text has one character per column on these lines (no wide characters).
            guard let range = row.range(of: text) else { continue }
            return (row.distance(from: row.startIndex, to: range.lowerBound), y)
        }
        return nil
    }

    /// `event` at (`x`, `y`) of `model`'s screen as rendered now, applied as the session would.
    @discardableResult
    static func mouse(_ action: MouseEvent.Action, x: Int, y: Int, on model: inout DashboardModel) -> [Command] {
        let map = render(model).hitMap
        return MouseRouting.actions(for: MouseEvent(action, x: x, y: y), in: map).flatMap { model.point($0) }
    }

    // MARK: - The hit map

    @Test func theHitMapOfA120x40ScreenKnowsRowsHeadingsViewTitlesHintsAndPanes() throws {
        let grid = Self.render(Self.model)
        let map = grid.hitMap
        let report = try #require(Self.find("#3", in: grid))
        #expect(map.target(x: report.x, y: report.y) == .row(2), "the third flow listed")
        #expect(map.target(x: 100, y: report.y) == .row(2), "the whole width of the row")
        let heading = try #require(Self.find("title", in: grid, line: report.y - 3))
        #expect(map.target(x: heading.x + 2, y: heading.y) == .heading(column: 2), "the schema's title column")
        let elapsed = try #require(Self.find("elapsed", in: grid, line: heading.y))
        #expect(map.target(x: elapsed.x, y: elapsed.y) == .heading(column: 6))
        let tab = try #require(Self.find("Tab: stored jobs", in: grid))
        #expect(map.target(x: tab.x + 6, y: tab.y) == .view(1))
        #expect(map.target(x: tab.x - 6, y: tab.y) == nil, "the rest of the title is the pane's")
        let status = Self.size.height - 1
        let cancel = try #require(Self.find("c cancel", in: grid, line: status))
        #expect(map.target(x: cancel.x, y: status) == .key(.character("c")))
        #expect(map.target(x: cancel.x + 4, y: status) == .key(.character("c")), "the hint's word acts as its key")
        let arrows = try #require(Self.find("↑↓ select", in: grid, line: status))
        #expect(map.target(x: arrows.x, y: status) == .key(.up))
        #expect(map.target(x: arrows.x + 1, y: status) == .key(.down))
        #expect(map.target(x: arrows.x + 4, y: status) == nil, "the word of two keys is neither")
        let log = try #require(map.rect(of: .log))
        #expect(map.pane(x: log.x + 5, y: log.y + 2) == .log && map.target(x: log.x + 5, y: log.y + 2) == nil)
        #expect(map.pane(x: 2, y: report.y) == .list)
        #expect(map.pane(x: 2, y: 0) == nil, "the header is no pane")
    }

    @Test func theHitMapIsEmptyBelowTheMinimumSize() {
        let grid = DashboardView(glyphs: .unicode).render(Self.model, size: GridSize(width: 40, height: 10))
        #expect(grid.hitMap == HitMap())
    }

    @Test func hintsAreCutIntoTheirKeys() {
        #expect(KeyHint("C R", "all").keyParts.map(\.key) == [.character("C"), nil, .character("R")])
        #expect(KeyHint("↑↓", "select").keyParts.map(\.text) == ["↑", "↓"])
        #expect(KeyHint("Enter", "detail").onlyKey == .enter)
        #expect(KeyHint("n N", "match").onlyKey == nil)
        #expect(KeyHint("C R", "all").keyParts.map(\.text).joined() == "C R")
    }

    // MARK: - Clicks and the wheel

    @Test func aClickOnARowSelectsThatFlowAndGivesTheArrowsToTheList() throws {
        var model = Self.model
        _ = model.handle(.enter)
        #expect(model.flows.focus == .detail)
        let row = try #require(Self.find("#3", in: Self.render(model)))
        Self.mouse(.press, x: row.x + 20, y: row.y, on: &model)
        #expect(model.flows.selection == FlowID(3))
        #expect(model.flows.focus == .flows)
        #expect(Self.render(model).text.contains("#3 Build report (read) — running"), "the detail pane shows it")
    }

    @Test func aClickOnTheDetailPaneFocusesIt() throws {
        var model = Self.model
        let detail = try #require(Self.render(model).hitMap.rect(of: .detail))
        Self.mouse(.press, x: detail.x + 3, y: detail.y + 3, on: &model)
        #expect(model.flows.focus == .detail)
    }

    @Test func theWheelScrollsTheLogByThreeLinesAndTheListByThreeRows() throws {
        var model = Self.model
        for line in 1...40 { model.note("line \(line)", level: .info, at: .seconds(1)) }
        let log = try #require(Self.render(model).hitMap.rect(of: .log))
        Self.mouse(.wheelUp, x: log.x + 10, y: log.y + 2, on: &model)
        #expect(model.logScroll == 3)
        #expect(Self.render(model).text.contains("Event log — 3 newer line(s) below"))
        Self.mouse(.wheelUp, x: log.x + 10, y: log.y + 2, on: &model)
        Self.mouse(.wheelDown, x: log.x + 10, y: log.y + 2, on: &model)
        #expect(model.logScroll == 3)
        let row = try #require(Self.find("#1", in: Self.render(model)))
        Self.mouse(.wheelDown, x: row.x, y: row.y, on: &model)
        #expect(model.flows.selection == FlowID(4), "three rows down from #1")
        Self.mouse(.wheelDown, x: row.x, y: row.y, on: &model)
        #expect(model.flows.selection == FlowID(5), "stops at the last")
    }

    @Test func aClickOnAHeadingSortsByItAndASecondClickInvertsIt() throws {
        var model = Self.model
        let heading = try #require(Self.find("title", in: Self.render(model)))
        let first = Self.mouse(.press, x: heading.x, y: heading.y, on: &model)
        #expect(first == [.rememberSort(view: "flows", SavedSort(column: "title", ascending: true))])
        #expect(model.flows.visibleFlows(model.shared).map(\.info.id.rawValue) == [4, 3, 1, 2, 5])
        #expect(Self.render(model).text.contains("title▲"))
        #expect(model.notice == "flows sorted by title, smallest first")
        let second = Self.mouse(.press, x: heading.x, y: heading.y, on: &model)
        #expect(second == [.rememberSort(view: "flows", SavedSort(column: "title", ascending: false))])
        #expect(model.flows.visibleFlows(model.shared).map(\.info.id.rawValue) == [5, 2, 1, 3, 4])
        #expect(Self.render(model).text.contains("title▼"))
    }

    @Test func aClickOnAStoredJobsHeadingSortsThatList() throws {
        var model = Self.model
        model.showView(at: 1)
        let grid = Self.render(model)
        let heading = try #require(Self.find("retries", in: grid))
        Self.mouse(.press, x: heading.x, y: heading.y, on: &model)
        #expect(model.store?.query.sort == ListSort(column: 3))
    }

    @Test func aClickOnAStatusHintActsAsTheKey() throws {
        var model = Self.model
        let status = Self.size.height - 1
        let help = try #require(Self.find("? help", in: Self.render(model), line: status))
        Self.mouse(.press, x: help.x, y: status, on: &model)
        #expect(model.mode == .help, "as ?")
        Self.mouse(.press, x: 10, y: 10, on: &model)
        #expect(model.mode == .normal, "a click closes the help, as any key")
        let pause = try #require(Self.find("p pause", in: Self.render(model), line: status))
        Self.mouse(.press, x: pause.x + 3, y: status, on: &model)
        #expect(model.paused, "as p")
    }

    @Test func aClickOnTheOtherViewsTitleShowsIt() throws {
        var model = Self.model
        let tab = try #require(Self.find("Tab: stored jobs", in: Self.render(model)))
        Self.mouse(.press, x: tab.x + 2, y: tab.y, on: &model)
        #expect(model.shownTab is StoreTab)
        let back = try #require(Self.find("Tab: flows", in: Self.render(model)))
        Self.mouse(.press, x: back.x, y: back.y, on: &model)
        #expect(model.shownTab is FlowsTab)
    }

    @Test func whileAQuestionWaitsOrAFilterIsTypedTheMouseDoesNothing() throws {
        var model = Self.model
        _ = model.handle(.character("/"))
        let row = try #require(Self.find("#3", in: Self.render(model)))
        Self.mouse(.press, x: row.x, y: row.y, on: &model)
        #expect(model.flows.selection == FlowID(1) && model.mode == .filter)
    }

    // MARK: - Through the session

    @Test @MainActor func theSessionReadsAClickAgainstTheLastFrame() throws {
        let session = DashboardSession(scenarioName: "test", theme: .fallback, themes: ThemeCatalog(directories: []))
        for (index, event) in [
            FlowEvent.flowQueued(Fixture.info(1, "Import books")), .flowQueued(Fixture.info(2, "Import covers")),
            .flowQueued(Fixture.info(3, "Build report", .read)),
        ].enumerated() {
            session.ingest(event, at: .milliseconds(index))
        }
        session.handle(.mouse(MouseEvent(.press, x: 5, y: 5)))
        #expect(session.model.flows.selection == FlowID(1), "no frame yet: a click means nothing")
        session.resize(to: Self.size)
        let grid = session.frame(size: Self.size, glyphs: .unicode)
        let row = try #require(Self.find("#3", in: grid))
        session.handle(.mouse(MouseEvent(.press, x: row.x, y: row.y)))
        #expect(session.model.flows.selection == FlowID(3))
        #expect(session.changed)
    }

    // MARK: - On or off

    @Test func noMouseAndThePreferenceDecideWhetherTheTerminalIsAskedForTheMouse() {
        #expect(DashboardLauncher.mouseByDefault)
        #expect(DashboardLauncher.mouse(noMouse: false, preference: nil) == DashboardLauncher.mouseByDefault)
        #expect(DashboardLauncher.mouse(noMouse: false, preference: false) == false, "mouse = false")
        #expect(DashboardLauncher.mouse(noMouse: false, preference: true) == true)
        #expect(DashboardLauncher.mouse(noMouse: true, preference: true) == false, "--no-mouse wins over the file")
        #expect(DashboardLauncher.mouse(noMouse: true, preference: nil) == false)
    }

    @Test @MainActor func theLauncherTakesTheFlagAndThePreferences() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-mouse-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "config.toml").path
        try "mouse = false\n".write(toFile: path, atomically: true, encoding: .utf8)
        let keeper = try DashboardLauncher.preferences(explicit: path)
        #expect(keeper?.preferences.mouse == false)
        #expect(DashboardLauncher(program: "t", output: .automatic, history: nil, preferences: keeper).mouse == false)
        #expect(DashboardLauncher(program: "t", output: .automatic, history: nil).mouse == DashboardLauncher.mouseByDefault)
        #expect(DashboardLauncher(program: "t", output: .automatic, history: nil, noMouse: true).mouse == false)
    }
}
