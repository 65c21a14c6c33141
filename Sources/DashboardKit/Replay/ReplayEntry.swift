import TaskFlow

/// One thing a recording holds, at the session time it happened: what a ``SessionRecording``
/// wrote down, and what a replay plays on a session in the same order, at the same times, so
/// that the replayed session sees what the recorded one saw.
package struct ReplayEntry: Sendable {
    /// What happened.
    package enum Content: Sendable {
        /// The session took in a manager's snapshot; `queues` are the job queues it showed.
        case snapshot(ManagerSnapshot, queues: [QueueDescription]?)
        /// The session took in a snapshot in place of `missed` events it lost (an attached
        /// dashboard that fell behind).
        case resync(ManagerSnapshot, missed: Int)
        /// A flow event.
        case flow(FlowEvent)
        /// A job queue event.
        case job(JobEvent)
        /// A change of the job store, as its log line.
        case storeChange(LogLine)
    }

    /// When, since the recorded session started.
    package let time: Duration
    /// What.
    package let content: Content

    /// An entry.
    package init(time: Duration, content: Content) {
        self.time = time
        self.content = content
    }

    /// Tells `session` what happened, at the recorded time.
    @MainActor
    package func play(on session: DashboardSession) {
        switch content {
        case .snapshot(let snapshot, let queues): session.adopt(snapshot, queues: queues, at: time)
        case .resync(let snapshot, let missed): session.ingest(snapshot, missed: missed, at: time)
        case .flow(let event): session.ingest(event, at: time)
        case .job(let event): session.ingest(event, at: time)
        case .storeChange(let line): session.storeChanged(line, at: time)
        }
    }
}
