import TaskFlow

/// A ``StepInfo`` as it travels: `{"id": 2, "parent": 1, "title": "Upload", "kind": "task"}`.
package struct WireStepInfo: Codable, Sendable {
    /// The step described.
    package let core: StepInfo

    /// The wire form of `core`.
    package init(_ core: StepInfo) { self.core = core }

    private enum CodingKeys: String, CodingKey { case id, parent, title, kind }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = StepInfo(
            id: StepID(try c.decode(Int.self, forKey: .id)),
            parent: try c.decodeIfPresent(Int.self, forKey: .parent).map(StepID.init),
            title: try c.decode(String.self, forKey: .title), kind: try c.decodeNamed(StepKind.self, forKey: .kind))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.id.rawValue, forKey: .id)
        try c.encodeIfPresent(core.parent?.rawValue, forKey: .parent)
        try c.encode(core.title, forKey: .title)
        try c.encode(core.kind.rawValue, forKey: .kind)
    }
}

/// A ``StepOutcome`` as it travels: `{"outcome": "completed"}`, `{"outcome": "failed", "error": "…"}`.
package struct WireStepOutcome: Codable, Sendable {
    /// The outcome.
    package let core: StepOutcome

    /// The wire form of `core`.
    package init(_ core: StepOutcome) { self.core = core }

    private enum Name: String, WireCases { case completed, cancelled, failed }
    private enum CodingKeys: String, CodingKey { case outcome, error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decodeNamed(Name.self, forKey: .outcome) {
        case .completed: core = .completed
        case .cancelled: core = .cancelled
        case .failed: core = .failed(try c.decode(String.self, forKey: .error))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch core {
        case .completed: try c.encode(Name.completed.rawValue, forKey: .outcome)
        case .cancelled: try c.encode(Name.cancelled.rawValue, forKey: .outcome)
        case .failed(let message):
            try c.encode(Name.failed.rawValue, forKey: .outcome)
            try c.encode(message, forKey: .error)
        }
    }
}

/// A ``StepStatus`` as it travels: `{"status": "reverting"}`, `{"status": "revertFailed", "error": "…"}`.
package struct WireStepStatus: Codable, Sendable {
    /// The status.
    package let core: StepStatus

    /// The wire form of `core`.
    package init(_ core: StepStatus) { self.core = core }

    private enum Name: String, WireCases { case running, completed, cancelled, failed, reverting, reverted, revertFailed }
    private enum CodingKeys: String, CodingKey { case status, error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decodeNamed(Name.self, forKey: .status) {
        case .running: core = .running
        case .completed: core = .completed
        case .cancelled: core = .cancelled
        case .failed: core = .failed(try c.decode(String.self, forKey: .error))
        case .reverting: core = .reverting
        case .reverted: core = .reverted
        case .revertFailed: core = .revertFailed(try c.decode(String.self, forKey: .error))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        let (name, error): (Name, String?) =
            switch core {
            case .running: (.running, nil)
            case .completed: (.completed, nil)
            case .cancelled: (.cancelled, nil)
            case .failed(let message): (.failed, message)
            case .reverting: (.reverting, nil)
            case .reverted: (.reverted, nil)
            case .revertFailed(let message): (.revertFailed, message)
            }
        try c.encode(name.rawValue, forKey: .status)
        try c.encodeIfPresent(error, forKey: .error)
    }
}

/// A ``StepRetry`` as it travels: `{"title", "nextAttempt", "maxAttempts", "delay": {...}, "error"}`.
package struct WireStepRetry: Codable, Sendable {
    /// The retry.
    package let core: StepRetry

    /// The wire form of `core`.
    package init(_ core: StepRetry) { self.core = core }

    private enum CodingKeys: String, CodingKey { case title, nextAttempt, maxAttempts, delay, error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = StepRetry(
            title: try c.decode(String.self, forKey: .title), nextAttempt: try c.decode(Int.self, forKey: .nextAttempt),
            maxAttempts: try c.decode(Int.self, forKey: .maxAttempts),
            delay: try c.decode(WireDuration.self, forKey: .delay).core, error: try c.decode(String.self, forKey: .error))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.title, forKey: .title)
        try c.encode(core.nextAttempt, forKey: .nextAttempt)
        try c.encode(core.maxAttempts, forKey: .maxAttempts)
        try c.encode(WireDuration(core.delay), forKey: .delay)
        try c.encode(core.error, forKey: .error)
    }
}

/// A ``StepSnapshot`` as it travels: `{"info": {...}, "status": {...}, "progress": 0.5,
/// "started": -3.25, "ended": 1.5}`, its times in seconds since the feed's origin (the `time` of
/// messages; negative before it), because a monotonic instant means nothing in another process.
/// The times are new in protocol 1.1: a 1.0 program sends none.
package struct WireStepSnapshot: Codable, Sendable {
    /// The step, without its times (kept below, as the wire has them).
    private let step: StepSnapshot
    private let started: Double?
    private let ended: Double?

    /// The wire form of `core`, its instants given as seconds since `origin`.
    package init(_ core: StepSnapshot, origin: ContinuousClock.Instant) {
        step = StepSnapshot(info: core.info, status: core.status, progress: core.progress)
        started = core.started.map { ($0 - origin).wireSeconds }
        ended = core.ended.map { ($0 - origin).wireSeconds }
    }

    /// The step, its times placed on a clock whose instant `origin` is the feed's origin.
    package func core(origin: ContinuousClock.Instant) -> StepSnapshot {
        StepSnapshot(
            info: step.info, status: step.status, progress: step.progress,
            started: started.map { .wire($0, after: origin) }, ended: ended.map { .wire($0, after: origin) })
    }

    private enum CodingKeys: String, CodingKey { case info, status, progress, started, ended }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        step = StepSnapshot(
            info: try c.decode(WireStepInfo.self, forKey: .info).core,
            status: try c.decode(WireStepStatus.self, forKey: .status).core,
            progress: try c.decodeIfPresent(Double.self, forKey: .progress))
        started = try c.decodeIfPresent(Double.self, forKey: .started)
        ended = try c.decodeIfPresent(Double.self, forKey: .ended)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(WireStepInfo(step.info), forKey: .info)
        try c.encode(WireStepStatus(step.status), forKey: .status)
        try c.encodeIfPresent(step.progress, forKey: .progress)
        try c.encodeIfPresent(started, forKey: .started)
        try c.encodeIfPresent(ended, forKey: .ended)
    }
}
