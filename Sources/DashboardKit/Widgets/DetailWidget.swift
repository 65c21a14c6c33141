import TaskFlow

/// The selected flow's step tree: groups and sequences indented, each step's status and
/// duration, and (where the pane is wide enough) the median of its title's past runs. During a rollback the steps turn to *reverting*, then *reverted*, last first.
/// Under the tree, once a flow of the same title has run: how many runs, p50/p90/p99 and their
/// spread, so a run can be judged against its title's past ones.
struct DetailWidget: Widget {
    let model: DashboardModel
    let tab: FlowsTab
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        let flow = tab.selectedFlow(model.shared)
        let title = flow.map { "\($0.info.id) \($0.info.title) (\($0.info.access.rawValue)) — \($0.phase.name)" } ?? "Detail"
        let inner = Panel(title: title, glyphs: glyphs, focused: tab.focus == .detail).draw(into: &grid, in: rect)
        guard let flow, !inner.isEmpty else { return }
        let (tree, statistics) = splitStatistics(of: flow, in: inner)
        renderTree(flow, message: flow.failureMessage, into: &grid, in: tree)
        renderStatistics(of: flow, into: &grid, in: statistics)
    }

    /// The rows under the tree for the title's statistics: two (the numbers, then the spread)
    /// when the tree keeps at least two, one when it keeps one, none before a run of the title
    /// ended (the tree keeps every row).
    private func splitStatistics(of flow: FlowRow, in inner: Rect) -> (tree: Rect, statistics: Rect) {
        guard model.shared.statistics.flows[flow.info.title] != nil else { return (inner, inner.splitBottom(0).1) }
        let rows = max(min(2, inner.height - 2), inner.height >= 2 ? 1 : 0)
        return inner.splitBottom(rows)
    }

    private func renderStatistics(of flow: FlowRow, into grid: inout CellGrid, in area: Rect) {
        let histogram = model.shared.statistics.flows[flow.info.title]
        guard !area.isEmpty, let summary = StatisticsText.summary("past runs", histogram) else { return }
        grid.put(summary.truncated(to: area.width, glyphs: glyphs), x: area.x, y: area.y, role: .dim, limit: area.width)
        guard area.height > 1, let spread = StatisticsText.spread(histogram, width: area.width - 10, glyphs: glyphs) else { return }
        grid.put("spread    " + spread, x: area.x, y: area.y + 1, role: .dim, limit: area.width)
    }

    private func renderTree(_ flow: FlowRow, message: String?, into grid: inout CellGrid, in inner: Rect) {
        var area = inner
        if let message {
            let (top, rest) = inner.splitTop(1)
            grid.put(glyphs.fold(message), x: top.x, y: top.y, role: .statusFailed, limit: top.width)
            area = rest
        }
        guard !area.isEmpty else { return }
        if flow.steps.isEmpty {
            grid.put(flow.phase.isActive ? "no step started yet" : "no steps", x: area.x, y: area.y, role: .dim, limit: area.width)
            return
        }
        let first = firstVisible(flow.steps, rows: area.height)
        let durationWidth = 8, phaseWidth = 14
        // The usual time of each step title (p50 of its past runs) where the titles keep room.
        let usualWidth = area.width >= Self.widthForUsual ? Self.usualWidth : 0
        let titleWidth = max(area.width - durationWidth - phaseWidth - usualWidth, 1)
        for (offset, step) in flow.steps.dropFirst(first).prefix(area.height).enumerated() {
            let y = area.y + offset
            let label = String(repeating: "  ", count: step.depth) + "\(marker(step.info.kind)) \(step.info.title)"
            grid.put(glyphs.fold(label).truncated(to: titleWidth - 1, glyphs: glyphs), x: area.x, y: y, role: .normal, limit: titleWidth - 1)
            grid.put(step.status.name, x: area.x + titleWidth, y: y, role: step.status.role, limit: phaseWidth - 1)
            grid.put(step.duration(at: model.now).compact, x: area.x + titleWidth + phaseWidth, y: y, role: .dim, limit: durationWidth)
            if usualWidth > 0, let usual = usualTime(of: step) {
                grid.put(usual, x: area.x + titleWidth + phaseWidth + durationWidth, y: y, role: .dim, limit: usualWidth)
            }
        }
    }

    /// The columns of the usual time, `p50 1.2s`, and the pane's width from which it shows.
    private static let usualWidth = 11, widthForUsual = 60

    /// `p50 1.2s`: the median of the past runs of `step`'s title, the one it is judged against;
    /// nil before one ended.
    private func usualTime(of step: StepNode) -> String? {
        guard let runs = model.shared.statistics.steps[step.info.title], runs.count > 0 else { return nil }
        return "p50 \(runs.percentile(50).delayText)"
    }

    /// With the detail pane focused the user scrolls; otherwise the view follows the step that
    /// is running or reverting, so a long flow's activity stays on screen.
    private func firstVisible(_ steps: [StepNode], rows: Int) -> Int {
        let maxFirst = max(steps.count - rows, 0)
        if tab.focus == .detail { return min(tab.detailScroll, maxFirst) }
        let active = steps.lastIndex { $0.status == .running || $0.status == .reverting }
        guard let active else { return 0 }
        return min(max(active - rows + 2, 0), maxFirst)
    }

    private func marker(_ kind: StepKind) -> String {
        switch kind {
        case .main: "fg"
        case .query: "fq"
        case .task: "bg"
        case .update: "up"
        case .group: "G "
        case .sequence: "S "
        }
    }
}
