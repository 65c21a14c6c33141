import TaskFlow

/// A ``FlowInfo`` as it travels: `{"id": 3, "title": "Import", "access": "write"}`.
package struct WireFlowInfo: Codable, Sendable {
    /// The flow described.
    package let core: FlowInfo

    /// The wire form of `core`.
    package init(_ core: FlowInfo) { self.core = core }

    private enum CodingKeys: String, CodingKey { case id, title, access }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = FlowInfo(
            id: FlowID(try c.decode(Int.self, forKey: .id)), title: try c.decode(String.self, forKey: .title),
            access: try c.decodeNamed(FlowAccess.self, forKey: .access))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.id.rawValue, forKey: .id)
        try c.encode(core.title, forKey: .title)
        try c.encode(core.access.rawValue, forKey: .access)
    }
}

/// A ``FlowStatus`` as it travels: `{"phase": "rollingBack", "cause": {...}}`,
/// `{"phase": "failed", "error": "…"}`, `{"phase": "rollbackIncomplete", "cause": {...},
/// "failures": [{"step": {...}, "error": "…"}]}`. Errors travel as their descriptions and come
/// back as ``RemoteError``s, so the status describes itself as it did in the program.
package struct WireFlowStatus: Codable, Sendable {
    /// The status.
    package let core: FlowStatus

    /// The wire form of `core`.
    package init(_ core: FlowStatus) { self.core = core }

    private enum CodingKeys: String, CodingKey { case phase, cause, error, failures }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decodeNamed(FlowPhase.self, forKey: .phase) {
        case .queued: core = .queued
        case .waiting: core = .waiting
        case .running: core = .running
        case .cancelling: core = .cancelling
        case .rollingBack: core = .rollingBack(try c.decode(WireRollbackCause.self, forKey: .cause).core)
        case .completed: core = .completed
        case .cancelled: core = .cancelled
        case .failed: core = .failed(RemoteError(try c.decode(String.self, forKey: .error)))
        case .rollbackIncomplete:
            core = .rollbackIncomplete(
                try c.decode(WireRollbackCause.self, forKey: .cause).core,
                try c.decode([WireRevertFailure].self, forKey: .failures).map(\.core))
        case .undoing: core = .undoing
        case .undone: core = .undone
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(core.phase.rawValue, forKey: .phase)
        switch core {
        case .rollingBack(let cause):
            try c.encode(WireRollbackCause(cause), forKey: .cause)
        case .failed(let error):
            try c.encode(String(describing: error), forKey: .error)
        case .rollbackIncomplete(let cause, let failures):
            try c.encode(WireRollbackCause(cause), forKey: .cause)
            try c.encode(failures.map(WireRevertFailure.init), forKey: .failures)
        default:
            break
        }
    }
}

/// A ``RollbackCause`` as it travels: `{"cause": "cancelled"}`, `{"cause": "failed", "error": "…"}`.
package struct WireRollbackCause: Codable, Sendable {
    /// The cause.
    package let core: RollbackCause

    /// The wire form of `core`.
    package init(_ core: RollbackCause) { self.core = core }

    private enum Name: String, WireCases { case cancelled, failed, undo }
    private enum CodingKeys: String, CodingKey { case cause, error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decodeNamed(Name.self, forKey: .cause) {
        case .cancelled: core = .cancelled
        case .failed: core = .failed(RemoteError(try c.decode(String.self, forKey: .error)))
        case .undo: core = .undo
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch core {
        case .cancelled: try c.encode(Name.cancelled.rawValue, forKey: .cause)
        case .undo: try c.encode(Name.undo.rawValue, forKey: .cause)
        case .failed(let error):
            try c.encode(Name.failed.rawValue, forKey: .cause)
            try c.encode(String(describing: error), forKey: .error)
        }
    }
}

/// A ``RevertFailure`` as it travels: `{"step": {...}, "error": "…"}`.
package struct WireRevertFailure: Codable, Sendable {
    /// The failure.
    package let core: RevertFailure

    /// The wire form of `core`.
    package init(_ core: RevertFailure) { self.core = core }

    private enum CodingKeys: String, CodingKey { case step, error }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = RevertFailure(
            step: try c.decode(WireStepInfo.self, forKey: .step).core,
            error: RemoteError(try c.decode(String.self, forKey: .error)))
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(WireStepInfo(core.step), forKey: .step)
        try c.encode(String(describing: core.error), forKey: .error)
    }
}
