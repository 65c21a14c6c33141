extension DashboardModel {
    /// ↑/↓/Home/End in the jobs view.
    mutating func moveJobSelection(_ action: KeyAction) {
        guard let rows = store?.rows, !rows.isEmpty else { return }
        let current = rows.firstIndex { $0.id == jobSelection } ?? 0
        let index = switch action {
        case .up: max(current - 1, 0)
        case .down: min(current + 1, rows.count - 1)
        case .first: 0
        default: rows.count - 1
        }
        jobSelection = rows[index].id
    }

    /// `r` in the jobs view: a failed job queued again.
    mutating func retrySelectedJob() -> [Command] {
        guard tab == .store, let job = selectedJob else {
            notice = "r retries a failed job: select one in the jobs view (Tab)"
            return []
        }
        guard job.canRetry else {
            notice = "job \(job.id) is \(job.state.rawValue): only a failed job can be retried"
            return []
        }
        notice = "job \(job.id) queued again"
        return [.retryStoredJob(job.id)]
    }

    /// `c` in the jobs view: asks whether to remove the selected job (it is gone for good, and
    /// the list moves under the cursor as jobs finish), unless a worker runs it.
    mutating func cancelSelectedJob() -> [Command] {
        guard let job = selectedJob else { return [] }
        guard job.canCancel else {
            notice = "job \(job.id) is running: it can be cancelled when its run ends"
            return []
        }
        mode = .confirmCancelJob(job.id)
        return []
    }

    /// The answer to "remove job N?".
    mutating func answerCancelJob(_ id: Int64, _ key: Key) -> [Command] {
        guard let yes = Self.answer(key) else { return [] }
        mode = .normal
        notice = yes ? "job \(id) cancelled" : "job \(id) kept"
        return yes ? [.cancelStoredJob(id)] : []
    }

    /// `n`: the condition the store's jobs wait for switches (the outbox demo's network).
    mutating func switchStoreCondition() -> [Command] {
        guard let condition = store?.condition else {
            notice = "n switches a condition the jobs wait for: the outbox demo's network"
            return []
        }
        notice = "\(condition.name) \(condition.isMet ? "down" : "up")"
        store?.switchCondition()
        return [.switchStoreCondition]
    }

    /// `w`: the store is told conditions changed, so its parked jobs run again.
    mutating func wakeParkedJobs() -> [Command] {
        guard store != nil else {
            notice = "no job store: start taskflow with --store PATH"
            return []
        }
        notice = "conditions changed: parked jobs run again"
        return [.wakeParkedJobs]
    }
}
