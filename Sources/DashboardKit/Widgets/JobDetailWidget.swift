/// The selected job in full, in the detail pane of the jobs view: times, lease owner, last
/// error and the payload with its secret fields redacted; then, once this process ran jobs of
/// its kind, how long those runs took (count, p50/p90/p99, spread).
struct JobDetailWidget: Widget {
    let model: DashboardModel
    let tab: StoreTab
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        let job = tab.selectedJob
        let title = job.map { "Job #\($0.id) — \($0.state.rawValue)   c cancel  r retry  w wake parked" } ?? "Job"
        let inner = Panel(title: title, glyphs: glyphs, focused: false).draw(into: &grid, in: rect)
        guard let job, !inner.isEmpty else { return }
        let lines = job.details { tab.board.remaining(until: $0, now: model.now) }
            + StatisticsText.pastRunLines(tab.board.runs[job.kind], glyphs: glyphs)
        for (offset, line) in lines.prefix(inner.height).enumerated() {
            grid.put(glyphs.fold(line).truncated(to: inner.width, glyphs: glyphs), x: inner.x, y: inner.y + offset, role: .normal, limit: inner.width)
        }
    }
}
