@testable import DashboardKit
import TaskFlow
import Testing

/// The event log with the keys (`L`): a cursor, a search whose matches `n`/`N` visit and the
/// screen highlights, Enter selecting the line's flow or job, `f` keeping one flow's lines.
@Suite("Event log: search, select, narrow")
struct LogFocusTests {
    @Test func searchVisitsMatchesBothWaysWrappingAndHighlightsThem() {
        var model = ListQueryTests.flows
        _ = model.handle(.character("L"))
        #expect(model.logFocus != nil && model.hints.map(\.hint.keys).contains("n N"))
        type("/import\n", into: &model)
        #expect(cursorText(model)?.contains("Import") == true, "typing moves the cursor to a match: \(cursorText(model) ?? "none")")
        let first = model.logFocus?.cursor
        _ = model.handle(.character("N"))
        let previous = model.logFocus?.cursor
        #expect(previous != first && cursorText(model)?.contains("Import") == true)
        _ = model.handle(.character("n"))
        #expect(model.logFocus?.cursor == first, "n comes back")
        let screen = ListQueryTests.screen(model)
        #expect(screen.contains("Event log — keys here (L leaves) — search \"import\" (n N)"), "\(screen)")
        let grid = DashboardView(glyphs: .unicode).render(model, size: GridSize(width: 120, height: 30))
        let highlighted = (0..<grid.size.height).contains { y in
            let row = (0..<grid.size.width).map { grid[$0, y] }
            let text = String(String.UnicodeScalarView(row.map(\.scalar)))
            guard let range = text.range(of: "Import") else { return false }
            let x = text.distance(from: text.startIndex, to: range.lowerBound)
            return row[x].role == .notice && row[x - 1].role != .notice
        }
        #expect(highlighted, "a match is drawn in the notice role, the text around it not")

        type("/zzz", into: &model)
        _ = model.handle(.enter)
        _ = model.handle(.character("n"))
        #expect(model.notice == "no line matches \"importzzz\"")
    }

    @Test func enterSelectsTheLinesFlowInTheFlowsViewAndGivesTheKeysBack() {
        var model = ListQueryTests.flows
        #expect(model.flows.selection == FlowID(1))
        _ = model.handle(.character("L"))
        type("/send mail\n", into: &model)
        _ = model.handle(.enter)
        #expect(model.logFocus == nil, "the keys are the view's again")
        #expect(model.flows.selection == FlowID(4))
        #expect(model.shownTab is FlowsTab)
    }

    @Test func enterOnAJobLineSelectsItInTheQueuesView() {
        var model = ListQueryTests.flows
        model.add(QueuesTab(queues: [QueueDescription(title: "Uploads", maxConcurrent: 1)]))
        let job = JobInfo(id: JobID(7), title: "photo.jpg", queue: "Uploads", priority: .normal, dependencies: [], maxAttempts: 1)
        model.apply(.added(job), at: .seconds(2))
        _ = model.handle(.character("L"))
        type("/photo\n", into: &model)
        _ = model.handle(.enter)
        #expect(model.shownTab is QueuesTab)
        #expect(model.tab(QueuesTab.self)?.selection == .job(JobID(7)))
    }

    @Test func fKeepsTheSelectedFlowsLinesOnly() {
        var model = ListQueryTests.flows
        _ = model.handle(.down)  // #2
        _ = model.handle(.character("L"))
        _ = model.handle(.character("f"))
        let lines = model.shared.focusedLogLines
        #expect(!lines.isEmpty && lines.allSatisfy { $0.entry.subject == .flow(FlowID(2)) })
        #expect(ListQueryTests.screen(model).contains("only #2 (f: every line)"))
        _ = model.handle(.character("f"))
        #expect(model.shared.focusedLogLines.count == model.board.log.entries.count)
        _ = model.handle(.escape)
        #expect(model.logFocus == nil)
        _ = model.handle(.up)
        #expect(model.flows.selection == FlowID(1), "the arrows move the flows again")
    }

    @Test func theHelpListsTheLogsKeysWhileItHasThem() {
        var model = ListQueryTests.flows
        _ = model.handle(.character("L"))
        #expect(model.keyHelp.map(\.keys).prefix(5) == ["↑ / k, ↓ / j", "/ · n N", "Enter", "f", "L / Esc"])
        _ = model.handle(.character("?"))
        let help = DashboardView(glyphs: .unicode).render(model, size: DashboardLayout.minimum).text
        #expect(help.contains("select the line's flow or job"))
    }

    private func cursorText(_ model: DashboardModel) -> String? {
        let lines = model.shared.focusedLogLines
        return model.shared.logCursorIndex(in: lines).map { lines[$0].entry.text }
    }

    private func type(_ keys: String, into model: inout DashboardModel) {
        ListQueryTests().type(keys, into: &model)
    }
}
