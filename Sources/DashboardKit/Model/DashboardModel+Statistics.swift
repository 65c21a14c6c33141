extension DashboardModel {
    /// The in-process queues' job statistics, when a queues view is attached.
    package var jobStatistics: JobStatistics? {
        tab(QueuesTab.self)?.board.statistics
    }

    /// True while a flow or a job ended within the last minute: the header's sparklines still
    /// have a column to move left as the seconds pass.
    var sparklinesMove: Bool {
        shared.statistics.isRecent(at: shared.now) || jobStatistics?.isRecent(at: shared.now) == true
    }
}
