@testable import DashboardKit
import Testing

/// A view of the dashboard defined here, outside its sources: a counter that `x` counts up.
/// Adding it to a model is all it takes to see it as a tab, with its own key, hint, help line
/// and panes — no edit of the dashboard's files.
private struct CounterTab: DashboardTab {
    enum Action: Hashable, Sendable { case count }

    private(set) var count = 0

    var name: String { "counter" }

    var keys: [KeyRow<Action>] {
        [KeyRow(keys: "x", action: "count one more", hint: KeyHint("x", "count"), bindings: [.character("x"): .count])]
    }

    mutating func perform(_ action: Action, _ shared: inout SharedState) -> [Command] {
        count += 1
        shared.notice = "counted \(count)"
        return []
    }

    func panes(of model: DashboardModel, glyphs: Glyphs) -> TabPanes {
        TabPanes(list: Line(text: "Counted \(count)"), detail: Line(text: "the counter's detail"), side: Line(text: "its side"))
    }

    /// One line at the top of its pane.
    private struct Line: Widget {
        let text: String

        func render(into grid: inout CellGrid, in rect: Rect) {
            grid.put(text, x: rect.x, y: rect.y, role: .normal, limit: rect.width)
        }
    }
}

@Suite("Model and view: a fourth view, added from outside")
struct FourthViewTests {
    private static let size = GridSize(width: 100, height: 30)

    private func lines(_ model: DashboardModel) -> [String] {
        DashboardView(glyphs: .unicode).render(model, size: Self.size).text.split(separator: "\n").map(String.init)
    }

    @Test func itIsATabWithItsOwnKeyHintHelpAndPanes() throws {
        var model = Fixture.model(Fixture.busy)
        model.add(CounterTab())
        #expect(lines(model)[1].hasPrefix("┌─ Flows — Tab: counter "), "the flows view says where Tab goes")
        #expect(model.handle(.character("x")).isEmpty && model.tab(CounterTab.self)?.count == 0, "x is not a key of the flows view")

        _ = model.handle(.tab)
        #expect(model.shownTab is CounterTab)
        #expect(model.handle(.character("x")).isEmpty)
        #expect(model.tab(CounterTab.self)?.count == 1 && model.notice == "counted 1", "x is its key")
        model.notice = nil
        let screen = lines(model)
        #expect(screen[1] == "Counted 1", "its list pane, where the flow list was")
        let detail = try #require(screen.firstIndex { $0.hasPrefix("the counter's detail") }, "its detail pane")
        #expect(screen[detail].contains("its side"), "its side pane, beside the detail")
        #expect(screen.last == " ? help  q quit  x count  L log  p pause  t theme", "its hint in the status bar, the flows' gone")
        #expect(model.handle(.character("c")).isEmpty && model.notice == nil, "the flows' keys do not act here")

        _ = model.handle(.character("?"))
        #expect(lines(model).contains { $0.contains("x") && $0.contains("count one more") }, "its key in the help")
        _ = model.handle(.escape)
        _ = model.handle(.tab)
        #expect(model.shownTab is FlowsTab, "Tab goes round")
    }
}
