/// Turns a mouse event into model messages by what the last frame drew where it happened (a
/// ``HitMap``): a click on a row selects it, on a heading sorts by it, on a `Tab: …` title shows
/// that view, on a status bar hint acts as the key, elsewhere in a pane focuses the pane; the
/// wheel scrolls the pane under it by ``DashboardModel/wheelLines``. Pure, so every case is
/// tested without a terminal.
package enum MouseRouting {
    /// What `event` asks of the model, read against `map`; nothing where nothing was drawn.
    package static func actions(for event: MouseEvent, in map: HitMap) -> [PointerAction] {
        switch event.action {
        case .press:
            if let target = map.target(x: event.x, y: event.y) { return [action(for: target)] }
            return map.pane(x: event.x, y: event.y).map { [.focus($0)] } ?? []
        case .wheelUp, .wheelDown:
            let lines = event.action == .wheelUp ? -DashboardModel.wheelLines : DashboardModel.wheelLines
            return map.pane(x: event.x, y: event.y).map { [.scroll($0, lines: lines)] } ?? []
        }
    }

    /// What a click on `target` asks for.
    private static func action(for target: HitTarget) -> PointerAction {
        switch target {
        case .row(let index): .selectRow(index)
        case .heading(let column): .sort(column: column)
        case .view(let index): .showView(index)
        case .key(let key): .key(key)
        }
    }
}
