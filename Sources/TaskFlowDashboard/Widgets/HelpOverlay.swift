/// The `?` overlay: every key, centred over the dashboard.
struct HelpOverlay: Widget {
    let themeName: String
    let glyphs: Glyphs

    /// Every key and what it does; the single source for the overlay and the documentation.
    static let keys: [(key: String, action: String)] = [
        ("↑ / k, ↓ / j", "select a flow; scroll the steps when the detail pane has focus"),
        ("PgUp / PgDn", "scroll the event log back and forth"),
        ("Enter", "switch focus between the flow list and the detail pane"),
        ("c", "cancel the selected flow: its steps roll back at once, last first"),
        ("C", "cancel every running and waiting flow"),
        ("u, then y / n", "undo the selected completed write flow, after confirmation"),
        ("p", "pause / resume the view (the engine keeps running)"),
        ("/", "filter flows by title; Esc clears the filter"),
        ("t", "next theme"),
        ("?", "this help (any key closes it)"),
        ("q", "quit: running flows roll back first; q again quits at once"),
    ]

    func render(into grid: inout CellGrid, in rect: Rect) {
        let keyWidth = 16
        let width = min(rect.width - 4, 90), height = min(rect.height - 2, Self.keys.count + 4)
        let box = Rect(x: rect.x + (rect.width - width) / 2, y: rect.y + (rect.height - height) / 2, width: width, height: height)
        let inner = Panel(title: "Keys (theme: \(themeName))", glyphs: glyphs).draw(into: &grid, in: box)
        for (offset, entry) in Self.keys.prefix(max(inner.height - 2, 0)).enumerated() {
            let y = inner.y + 1 + offset
            grid.put(glyphs.fold(entry.key), x: inner.x + 1, y: y, role: .keyHint, limit: keyWidth)
            grid.put(glyphs.fold(entry.action), x: inner.x + 1 + keyWidth, y: y, role: .normal, limit: inner.width - keyWidth - 1)
        }
    }
}
