extension PaneRows {
    /// The pane rows of `size`'s ``DashboardLayout`` at the default list share (the flows view's,
    /// whose step tree scrolls), with a replay's time bar when `timeBar`; below the minimum size
    /// nothing is in view.
    package init(layoutOf size: GridSize, timeBar: Bool = false) {
        let layout = DashboardLayout(size: size, timeBar: timeBar)
        // A panel's border takes one row at the top and one at the bottom.
        self.init(logRows: (layout?.log.height ?? 0) - 2, detailRows: (layout?.detail.height ?? 0) - 2)
    }
}
