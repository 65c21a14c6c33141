/// A bordered box with a title; the panels of the dashboard are drawn inside one.
struct Panel {
    let title: String
    let glyphs: Glyphs
    /// A focused panel's title stands out, so the user sees where ↑/↓ go.
    var focused = false

    /// Draws the border and title, clears the inside and returns it.
    func draw(into grid: inout CellGrid, in rect: Rect) -> Rect {
        guard rect.width >= 2, rect.height >= 2 else { return Rect(x: rect.x, y: rect.y, width: 0, height: 0) }
        let right = rect.x + rect.width - 1, bottom = rect.y + rect.height - 1
        grid.fill(rect.inset(by: 1), role: .normal)
        grid.fill(Rect(x: rect.x, y: rect.y, width: rect.width, height: 1), with: glyphs.horizontal, role: .border)
        grid.fill(Rect(x: rect.x, y: bottom, width: rect.width, height: 1), with: glyphs.horizontal, role: .border)
        grid.fill(Rect(x: rect.x, y: rect.y, width: 1, height: rect.height), with: glyphs.vertical, role: .border)
        grid.fill(Rect(x: right, y: rect.y, width: 1, height: rect.height), with: glyphs.vertical, role: .border)
        for (x, y, corner) in [
            (rect.x, rect.y, glyphs.topLeft), (right, rect.y, glyphs.topRight),
            (rect.x, bottom, glyphs.bottomLeft), (right, bottom, glyphs.bottomRight),
        ] {
            grid.put(String(corner), x: x, y: y, role: .border, limit: 1)
        }
        let label = " \(glyphs.fold(title)) ".truncated(to: rect.width - 4, glyphs: glyphs)
        grid.put(label, x: rect.x + 2, y: rect.y, role: focused ? .selection : .title, limit: rect.width - 4)
        return rect.inset(by: 1)
    }
}
