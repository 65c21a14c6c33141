/// Renders a model into a cell grid: the whole screen, composed of the widgets.
public struct DashboardView: Sendable {
    /// The characters to draw with.
    public let glyphs: Glyphs

    /// A view drawing with `glyphs`.
    public init(glyphs: Glyphs) {
        self.glyphs = glyphs
    }

    /// The screen for `model` at `size`.
    public func render(_ model: DashboardModel, size: GridSize) -> CellGrid {
        var grid = CellGrid(size: size)
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        guard let layout = DashboardLayout(size: size, tab: model.tab) else {
            TooSmallWidget(size: size, glyphs: glyphs).render(into: &grid, in: screen)
            return grid
        }
        let (list, detail, side) = mainPanes(model)
        let widgets: [(any Widget, Rect)] = [
            (HeaderWidget(model: model, glyphs: glyphs), layout.header),
            (list, layout.flows),
            (detail, layout.detail),
            (side, layout.lock),
            (EventLogWidget(model: model, glyphs: glyphs), layout.log),
            (StatusBarWidget(model: model, glyphs: glyphs), layout.statusBar),
        ]
        for (widget, rect) in widgets { widget.render(into: &grid, in: rect) }
        if model.mode == .help { HelpOverlay(themeName: model.themeName, glyphs: glyphs).render(into: &grid, in: screen) }
        return grid
    }

    /// The list, detail and side widgets of the model's tab. The side pane shows the lock,
    /// except in the stored jobs' view, where the store's worker processes matter instead.
    private func mainPanes(_ model: DashboardModel) -> (any Widget, any Widget, any Widget) {
        let lock = LockPanelWidget(board: model.board, glyphs: glyphs)
        switch model.tab {
        case .store:
            if let store = model.store {
                return (
                    JobListWidget(model: model, store: store, glyphs: glyphs), JobDetailWidget(model: model, store: store, glyphs: glyphs),
                    WorkerProcessesWidget(model: model, store: store, glyphs: glyphs)
                )
            }
        case .queues:
            if let board = model.queueBoard {
                return (QueueListWidget(model: model, board: board, glyphs: glyphs), QueueDetailWidget(model: model, board: board, glyphs: glyphs), lock)
            }
        case .flows:
            break
        }
        return (FlowListWidget(model: model, glyphs: glyphs), DetailWidget(model: model, glyphs: glyphs), lock)
    }
}
