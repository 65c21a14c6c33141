/// Renders a model into a cell grid: the whole screen, composed of the widgets.
package struct DashboardView: Sendable {
    /// The characters to draw with.
    package let glyphs: Glyphs

    /// A view drawing with `glyphs`.
    package init(glyphs: Glyphs) {
        self.glyphs = glyphs
    }

    /// The screen for `model` at `size`: the header, the shown view's three panes (its side
    /// panel sharing the pane with the warnings while there are any), the log and the status
    /// bar, and the help over them when it is open.
    package func render(_ model: DashboardModel, size: GridSize) -> CellGrid {
        var grid = CellGrid(size: size)
        let screen = Rect(x: 0, y: 0, width: size.width, height: size.height)
        let tab = model.shownTab
        guard let layout = DashboardLayout(size: size, listShare: tab.listShare, timeBar: model.replay != nil) else {
            TooSmallWidget(size: size, glyphs: glyphs).render(into: &grid, in: screen)
            return grid
        }
        let panes = tab.panes(of: model, glyphs: glyphs)
        // Once per frame: the header counts them, the side pane lists them.
        let warnings = model.warnings
        let widgets: [(any Widget, Rect)] = [
            (HeaderWidget(model: model, glyphs: glyphs, warnings: warnings.count), layout.header),
            (panes.list, layout.list),
            (panes.detail, layout.detail),
            (SidePaneWidget(panel: panes.side, warnings: warnings, glyphs: glyphs), layout.side),
            (EventLogWidget(model: model, glyphs: glyphs), layout.log),
            (StatusBarWidget(model: model, glyphs: glyphs), layout.statusBar),
        ]
        for (widget, rect) in widgets { widget.render(into: &grid, in: rect) }
        // The panes go in after the widgets noted their rows and headings: a click looks for
        // those first, the pane (for focus and the wheel) second.
        let areas: [(DashboardPane, Rect)] = [(.list, layout.list), (.detail, layout.detail), (.side, layout.side), (.log, layout.log)]
        for (pane, rect) in areas { grid.hitMap.add(pane, rect) }
        if let replay = model.replay, let timeBar = layout.timeBar {
            TimeBarWidget(status: replay, position: model.now, glyphs: glyphs).render(into: &grid, in: timeBar)
        }
        if model.mode == .help {
            HelpOverlay(themeName: model.themeName, keys: model.keyHelp, glyphs: glyphs).render(into: &grid, in: screen)
        }
        return grid
    }
}
