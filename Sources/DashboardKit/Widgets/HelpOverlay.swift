/// The `?` overlay: the keys of the shown view and of every view, centred over the dashboard.
/// At the minimum screen size every key still shows: the padding rows go first, then the
/// overlay takes the whole height, and the actions are short enough to fit.
struct HelpOverlay: Widget {
    let themeName: String
    /// The keys and what they do (``DashboardModel/keyHelp``).
    let keys: [KeyHelp]
    let glyphs: Glyphs

    /// The key column: the widest key and a two-column gap.
    private var keyWidth: Int { (keys.map { $0.keys.displayWidth }.max() ?? 0) + 2 }

    func render(into grid: inout CellGrid, in rect: Rect) {
        let width = min(rect.width - 4, 90), height = min(rect.height, keys.count + 4)
        let box = Rect(x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width: width, height: height)
        let inner = Panel(title: "Keys (theme: \(themeName))", glyphs: glyphs).draw(into: &grid, in: box)
        // A blank row above and below the list when there is room for them and every key.
        let padding = inner.height >= keys.count + 2 ? 1 : 0
        for (offset, entry) in keys.prefix(max(inner.height - 2 * padding, 0)).enumerated() {
            let y = inner.y + padding + offset
            grid.put(glyphs.fold(entry.keys), x: inner.x + 1, y: y, role: .keyHint, limit: keyWidth)
            let action = glyphs.fold(entry.action).truncated(to: inner.width - keyWidth - 1, glyphs: glyphs)
            grid.put(action, x: inner.x + 1 + keyWidth, y: y, role: .normal, limit: inner.width - keyWidth - 1)
        }
    }
}
