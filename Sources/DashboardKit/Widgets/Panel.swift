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
        grid.put(label(in: rect), x: rect.x + 2, y: rect.y, role: focused ? .selection : .title, limit: rect.width - 4)
        return rect.inset(by: 1)
    }

    /// Where the title's last occurrence of `part` shows on the top border of a panel drawn in
    /// `rect`, cut where the title is cut; nil when it does not show. A click there means `part`
    /// (a `Tab: jobs` switches views).
    func titleRect(of part: String, in rect: Rect) -> Rect? {
        let label = label(in: rect)
        guard let range = label.ranges(of: glyphs.fold(part)).last else { return nil }
        let x = rect.x + 2 + String(label[..<range.lowerBound]).displayWidth
        let width = min(String(label[range]).displayWidth, rect.x + rect.width - 2 - x)
        return width > 0 ? Rect(x: x, y: rect.y, width: width, height: 1) : nil
    }

    /// Notes the title's `Tab: <next view>` (see ``DashboardModel/nextTabName``) as a click
    /// that shows that view, when the title shows it.
    func noteNextView(of model: DashboardModel, in rect: Rect, into grid: inout CellGrid) {
        guard let name = model.nextTabName, let place = titleRect(of: "Tab: \(name)", in: rect) else { return }
        grid.hitMap.add(.view((model.shownIndex + 1) % model.tabs.count), place)
    }

    /// The title as the top border shows it: padded, folded and cut to fit.
    private func label(in rect: Rect) -> String {
        " \(glyphs.fold(title)) ".truncated(to: rect.width - 4, glyphs: glyphs)
    }
}
