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
        let (list, detail) = mainPanes(model)
        let widgets: [(any Widget, Rect)] = [
            (HeaderWidget(model: model, glyphs: glyphs), layout.header),
            (list, layout.flows),
            (detail, layout.detail),
            (LockPanelWidget(board: model.board, glyphs: glyphs), layout.lock),
            (EventLogWidget(model: model, glyphs: glyphs), layout.log),
            (StatusBarWidget(model: model, glyphs: glyphs), layout.statusBar),
        ]
        for (widget, rect) in widgets { widget.render(into: &grid, in: rect) }
        if model.mode == .help { HelpOverlay(themeName: model.themeName, glyphs: glyphs).render(into: &grid, in: screen) }
        return grid
    }

    /// The list and detail widgets of the model's tab.
    private func mainPanes(_ model: DashboardModel) -> (any Widget, any Widget) {
        switch model.tab {
        case .store:
            if let store = model.store {
                return (JobListWidget(model: model, store: store, glyphs: glyphs), JobDetailWidget(model: model, store: store, glyphs: glyphs))
            }
        case .queues:
            if let board = model.queueBoard {
                return (QueueListWidget(model: model, board: board, glyphs: glyphs), QueueDetailWidget(model: model, board: board, glyphs: glyphs))
            }
        case .flows:
            break
        }
        return (FlowListWidget(model: model, glyphs: glyphs), DetailWidget(model: model, glyphs: glyphs))
    }
}
