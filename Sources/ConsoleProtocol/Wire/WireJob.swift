import TaskFlow

/// A ``JobInfo`` as it travels: `{"id", "title", "queue", "priority": "high", "dependencies": [ids], "maxAttempts"}`.
package struct WireJobInfo: Codable, Sendable {
    /// The job described.
    package let core: JobInfo

    /// The wire form of `core`.
    package init(_ core: JobInfo) { self.core = core }

    private enum CodingKeys: String, CodingKey { case id, title, queue, priority, dependencies, maxAttempts }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = JobInfo(
            id: JobID(try c.decode(UInt64.self, forKey: .id)), title: try c.decode(String.self, forKey: .title),
            queue: try c.decode(String.self, forKey: .queue),
            priority: try c.decodeNamed(JobPriority.self, forKey: .priority, name: \.description),
            dependencies: try c.decode([UInt64].self, forKey: .dependencies).map(JobID.init),
            maxAttempts: try c.decode(Int.self, forKey: .maxAttempts))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.id.rawValue, forKey: .id)
        try c.encode(core.title, forKey: .title)
        try c.encode(core.queue, forKey: .queue)
        try c.encode(core.priority.description, forKey: .priority)
        try c.encode(core.dependencies.map(\.rawValue), forKey: .dependencies)
        try c.encode(core.maxAttempts, forKey: .maxAttempts)
    }
}

/// A ``JobStatus`` as it travels: `{"status": "failed", "error": "…"}`,
/// `{"status": "retrying", "attempt": 2, "at": 12.5}` where `at` is seconds since the feed's
/// origin (the `time` of messages), because a monotonic instant means nothing in another process.
package struct WireJobStatus: Codable, Sendable, Hashable {
    private enum Name: String, WireCases { case waiting, running, retrying, succeeded, failed, cancelled }

    private let status: Name
    private let attempt: Int?
    private let at: Double?
    private let error: String?

    /// The wire form of `core`, its instant given as seconds since `origin`.
    package init(_ core: JobStatus, origin: ContinuousClock.Instant) {
        var (attempt, at, error): (Int?, Double?, String?) = (nil, nil, nil)
        switch core {
        case .waiting: status = .waiting
        case .running: status = .running
        case .retrying(let next, let instant): (status, attempt, at) = (.retrying, next, (instant - origin).wireSeconds)
        case .succeeded: status = .succeeded
        case .failed(let message): (status, error) = (.failed, message)
        case .cancelled: status = .cancelled
        }
        (self.attempt, self.at, self.error) = (attempt, at, error)
    }

    /// The status, its instant placed on a clock whose instant `origin` is the feed's origin.
    package func core(origin: ContinuousClock.Instant) -> JobStatus {
        switch status {
        case .waiting: .waiting
        case .running: .running
        case .retrying: .retrying(attempt: attempt ?? 2, at: .wire(at ?? 0, after: origin))
        case .succeeded: .succeeded
        case .failed: .failed(error ?? "")
        case .cancelled: .cancelled
        }
    }
}

/// A ``JobEvent`` as it travels: `{"kind": "<case name>", …}` with `job` (a job's info for
/// `added`, else its id), `attempt`, `maxAttempts`, `progress`, `error`, `nextDelay`, `status`,
/// `queue` and `paused`.
package struct WireJobEvent: Codable, Sendable {
    private enum Kind: String, WireCases { case added, started, progress, attemptFailed, finished, paused }

    private let kind: Kind
    private let info: WireJobInfo?
    private let id: UInt64?
    private let attempt: Int?
    private let maxAttempts: Int?
    private let progress: Double?
    private let error: String?
    private let nextDelay: WireDuration?
    private let status: WireJobStatus?
    private let queue: String?
    private let paused: Bool?

    private enum CodingKeys: String, CodingKey {
        case kind, info = "job", id, attempt, maxAttempts, progress, error, nextDelay, status, queue, paused
    }

    /// The wire form of `core`; a retrying status's instant as seconds since `origin`.
    package init(_ core: JobEvent, origin: ContinuousClock.Instant) {
        var (info, attempt, maxAttempts, progress, error): (WireJobInfo?, Int?, Int?, Double?, String?)
        var (nextDelay, status, queue, paused): (WireDuration?, WireJobStatus?, String?, Bool?)
        switch core {
        case .added(let job): (kind, info) = (.added, WireJobInfo(job))
        case .started(_, let run): (kind, attempt) = (.started, run)
        case .progress(_, let fraction): (kind, progress) = (.progress, fraction)
        case .attemptFailed(_, let run, let most, let message, let delay):
            (kind, attempt, maxAttempts, error, nextDelay) = (.attemptFailed, run, most, message, WireDuration(delay))
        case .finished(_, let final): (kind, status) = (.finished, WireJobStatus(final, origin: origin))
        case .paused(let title, let isPaused): (kind, queue, paused) = (.paused, title, isPaused)
        }
        id = core.jobID.flatMap { info == nil ? $0.rawValue : nil }
        (self.info, self.attempt, self.maxAttempts, self.progress, self.error) = (info, attempt, maxAttempts, progress, error)
        (self.nextDelay, self.status, self.queue, self.paused) = (nextDelay, status, queue, paused)
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        kind = try c.decodeNamed(Kind.self, forKey: .kind)
        info = kind == .added ? try c.decode(WireJobInfo.self, forKey: .info) : nil
        id = kind == .added || kind == .paused ? nil : try c.decode(UInt64.self, forKey: .id)
        attempt = try c.decodeIfPresent(Int.self, forKey: .attempt)
        maxAttempts = try c.decodeIfPresent(Int.self, forKey: .maxAttempts)
        progress = try c.decodeIfPresent(Double.self, forKey: .progress)
        error = try c.decodeIfPresent(String.self, forKey: .error)
        nextDelay = try c.decodeIfPresent(WireDuration.self, forKey: .nextDelay)
        status = kind == .finished ? try c.decode(WireJobStatus.self, forKey: .status) : nil
        queue = kind == .paused ? try c.decode(String.self, forKey: .queue) : nil
        paused = kind == .paused ? try c.decode(Bool.self, forKey: .paused) : nil
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind.rawValue, forKey: .kind)
        try c.encodeIfPresent(info, forKey: .info)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encodeIfPresent(attempt, forKey: .attempt)
        try c.encodeIfPresent(maxAttempts, forKey: .maxAttempts)
        try c.encodeIfPresent(progress, forKey: .progress)
        try c.encodeIfPresent(error, forKey: .error)
        try c.encodeIfPresent(nextDelay, forKey: .nextDelay)
        try c.encodeIfPresent(status, forKey: .status)
        try c.encodeIfPresent(queue, forKey: .queue)
        try c.encodeIfPresent(paused, forKey: .paused)
    }

    /// The event, a retrying status's instant placed on a clock whose instant `origin` is the
    /// feed's origin.
    package func core(origin: ContinuousClock.Instant) -> JobEvent {
        let job = JobID(id ?? 0)
        switch kind {
        case .added:
            // Decoding requires the info for `added`; a value built by `init(_:origin:)` has it.
            return .added(info?.core ?? JobInfo(id: job, title: "", queue: "", priority: .normal, dependencies: []))
        case .started: return .started(job, attempt: attempt ?? 1)
        case .progress: return .progress(job, progress ?? 0)
        case .attemptFailed:
            return .attemptFailed(
                job, attempt: attempt ?? 1, maxAttempts: maxAttempts ?? 1, error: error ?? "",
                nextDelay: nextDelay?.core ?? .zero)
        case .finished: return .finished(job, status?.core(origin: origin) ?? .failed(""))
        case .paused: return .paused(queue: queue ?? "", paused ?? false)
        }
    }
}
