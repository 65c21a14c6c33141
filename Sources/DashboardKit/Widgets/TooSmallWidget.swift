/// Shown instead of the dashboard when the terminal is smaller than the minimum.
struct TooSmallWidget: Widget {
    let size: GridSize
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        let minimum = DashboardLayout.minimum
        let lines = [
            "Terminal too small: \(size.width)x\(size.height)",
            "TaskFlow needs at least \(minimum.width)x\(minimum.height).",
            "Enlarge the window; q quits.",
        ]
        let top = rect.y + max((rect.height - lines.count) / 2, 0)
        for (offset, line) in lines.enumerated() {
            let x = rect.x + max((rect.width - line.count) / 2, 0)
            grid.put(line, x: x, y: top + offset, role: offset == 0 ? .statusFailed : .normal, limit: rect.width)
        }
    }
}
