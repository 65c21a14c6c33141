@testable import DashboardKit
import TaskFlow
import Testing

/// Scrolling stops where the panes' content ends, so the first key back moves at once, and a
/// log scrolled back stays on its lines while new ones arrive.
@Suite("Model: scrolling")
struct ScrollingModelTests {
    private static let size = GridSize(width: 80, height: 24)

    /// The busy fixture plus `lines` log notes, laid out at 80×24.
    private func model(notes lines: Int) -> DashboardModel {
        var model = Fixture.model(Fixture.busy)
        for index in 0..<lines { model.note("note \(index)", level: .info, at: .seconds(3)) }
        model.resize(PaneRows(layoutOf: Self.size))
        return model
    }

    /// The log lines on screen.
    private func logOnScreen(_ model: DashboardModel) -> [String] {
        model.board.log.window(count: model.panes.logRows, scroll: model.logScroll).map(\.text)
    }

    @Test func pageUpStopsAtTheOldestScreenfulAndPageDownMovesAtOnce() {
        var model = model(notes: 30)
        let log = model.board.log
        let top = log.maxScroll(count: model.panes.logRows)
        for _ in 0..<50 { _ = model.handle(.pageUp) }
        #expect(model.logScroll == top)
        #expect(logOnScreen(model).first == log.entries.first?.text, "the oldest line is in view")
        _ = model.handle(.pageDown)
        #expect(model.logScroll == top - DashboardModel.logPage, "the first PgDn scrolls, however many PgUp came before")
        for _ in 0..<50 { _ = model.handle(.pageDown) }
        #expect(model.logScroll == 0 && model.logAnchor == nil, "back at the bottom, the log follows new lines")
    }

    @Test func aScrolledBackLogStaysOnItsLinesWhileNewOnesArrive() {
        var model = model(notes: 30)
        _ = model.handle(.pageUp)
        let shown = logOnScreen(model)
        for index in 0..<7 { model.note("later \(index)", level: .info, at: .seconds(4)) }
        #expect(logOnScreen(model) == shown)
        #expect(model.logScroll == DashboardModel.logPage + 7)
        let title = DashboardView(glyphs: .unicode).render(model, size: Self.size).text
        #expect(title.contains("Event log — 12 newer line(s) below (PgDn)"))
    }

    @Test func stepTreeScrollStopsAtItsLastScreenful() throws {
        var events = [FlowEvent.flowQueued(Fixture.migrate), .statusChanged(FlowID(3), .running)]
        events += (1...20).map { .stepStarted(FlowID(3), Fixture.step($0, "step \($0)")) }
        var model = Fixture.model(events)
        model.resize(PaneRows(layoutOf: Self.size))
        _ = model.handle(.enter)
        for _ in 0..<50 { _ = model.handle(.down) }
        let last = 20 - model.panes.detailRows
        #expect(model.flows.detailScroll == last)
        _ = model.handle(.up)
        #expect(model.flows.detailScroll == last - 1, "the first ↑ scrolls, however many ↓ came before")
        let text = DashboardView(glyphs: .unicode).render(model, size: Self.size).text
        #expect(text.contains("bg step \(last)") && !text.contains("bg step \(last - 1) "))
    }

    @Test func aTallerLogWindowClampsTheScrollAgain() {
        var model = model(notes: 30)
        for _ in 0..<50 { _ = model.handle(.pageUp) }
        model.resize(PaneRows(layoutOf: GridSize(width: 80, height: 40)))
        #expect(model.logScroll == model.board.log.maxScroll(count: model.panes.logRows))
    }
}

@Suite("Model: quitting while paused")
struct QuitWhilePausedModelTests {
    @Test func theFirstQuitResumesTheViewSoTheRollbackShows() {
        var model = Fixture.model(Fixture.busy)
        _ = model.handle(.character("p"))
        _ = model.handle(.character("q"))
        #expect(!model.paused)
        _ = model.apply(.statusChanged(FlowID(3), .rollingBack(.cancelled)), at: .seconds(4))
        #expect(model.board.flow(FlowID(3))?.phase == .rollingBack)
        let header = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 80, height: 24)).text
        #expect(!header.contains("PAUSED") && header.contains("back 1 compl 1"))
    }
}
