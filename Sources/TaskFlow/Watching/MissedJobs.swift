/// The jobs a late watcher was told of from a queue's state (``JobQueue/missedEvents()``), to
/// drop the queue's own event that tells the same again: a job added, or started, between the
/// watcher's subscription and the state's reading is in both.
struct MissedJobs {
    private var added: Set<JobID>
    private var started: Set<JobID>

    /// The jobs `events` told of.
    init(_ events: [JobEvent]) {
        added = Set(events.compactMap { if case .added(let info) = $0 { info.id } else { nil } })
        started = Set(events.compactMap { if case .started(let id, _) = $0 { id } else { nil } })
    }

    /// Whether `event` was told already. Each job's first run is told once at most; a retry's
    /// start is always new.
    mutating func repeats(_ event: JobEvent) -> Bool {
        switch event {
        case .added(let info): added.remove(info.id) != nil
        case .started(let id, attempt: 1): started.remove(id) != nil
        default: false
        }
    }
}
