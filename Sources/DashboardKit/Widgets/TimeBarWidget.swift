/// A replay's time bar, above the status bar: `replay  playing  x2  12.3s / 1m05s  ████░░░░
/// event 12/40`. Shown only in a replay (``SharedState/replay``).
struct TimeBarWidget: Widget {
    let status: ReplayStatus
    /// Where the replay is: the model's clock.
    let position: Duration
    let glyphs: Glyphs

    func render(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, role: .normal)
        let end = rect.x + rect.width
        var x = rect.x
        x += grid.put(" replay  ", x: x, y: rect.y, role: .normal, limit: end - x)
        x += grid.put(status.paused ? "paused " : "playing", x: x, y: rect.y, role: status.paused ? .paused : .normal, limit: end - x)
        let clamped = min(position, status.length)
        x += grid.put("  \(status.speedText)  \(clamped.compact) / \(status.length.compact)  ", x: x, y: rect.y, role: .normal, limit: end - x)
        let count = " event \(status.played)/\(status.events) "
        let barWidth = end - x - count.count
        guard barWidth >= 4 else { return }
        let fraction = status.length > .zero ? clamped / status.length : 1
        let filled = Int((min(max(fraction, 0), 1) * Double(barWidth)).rounded(.down))
        x += grid.put(String(repeating: String(glyphs.filled), count: filled), x: x, y: rect.y, role: .progressFilled, limit: filled)
        x += grid.put(String(repeating: String(glyphs.empty), count: barWidth - filled), x: x, y: rect.y, role: .progressEmpty, limit: barWidth - filled)
        grid.put(count, x: x, y: rect.y, role: .dim, limit: end - x)
    }
}
