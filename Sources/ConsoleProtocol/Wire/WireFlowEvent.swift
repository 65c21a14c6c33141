import TaskFlow

/// A ``FlowEvent`` as it travels: `{"kind": "<case name>", …}` with the case's values under
/// `flow` (a flow's id, or for `flowQueued` its info), `status`, `step` (a step's info),
/// `stepID`, `outcome`, `progress`, `retry`, `error` and `lock`.
package struct WireFlowEvent: Codable, Sendable {
    /// The event.
    package let core: FlowEvent

    /// The wire form of `core`.
    package init(_ core: FlowEvent) { self.core = core }

    private enum Kind: String, WireCases {
        case flowQueued, statusChanged, stepStarted, stepFinished, progress, stepRetrying, stepReverting, stepReverted
        case revertFailed, lock, undoExpired
    }

    private enum CodingKeys: String, CodingKey { case kind, flow, status, step, stepID, outcome, progress, retry, error, lock }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func flow() throws -> FlowID { FlowID(try c.decode(Int.self, forKey: .flow)) }
        func step() throws -> StepInfo { try c.decode(WireStepInfo.self, forKey: .step).core }
        switch try c.decodeNamed(Kind.self, forKey: .kind) {
        case .flowQueued: core = .flowQueued(try c.decode(WireFlowInfo.self, forKey: .flow).core)
        case .statusChanged: core = .statusChanged(try flow(), try c.decode(WireFlowStatus.self, forKey: .status).core)
        case .stepStarted: core = .stepStarted(try flow(), try step())
        case .stepFinished:
            core = .stepFinished(
                try flow(), StepID(try c.decode(Int.self, forKey: .stepID)),
                try c.decode(WireStepOutcome.self, forKey: .outcome).core)
        case .progress:
            core = .progress(
                try flow(), StepID(try c.decode(Int.self, forKey: .stepID)), try c.decode(Double.self, forKey: .progress))
        case .stepRetrying: core = .stepRetrying(try flow(), try c.decode(WireStepRetry.self, forKey: .retry).core)
        case .stepReverting: core = .stepReverting(try flow(), try step())
        case .stepReverted: core = .stepReverted(try flow(), try step())
        case .revertFailed: core = .revertFailed(try flow(), try step(), try c.decode(String.self, forKey: .error))
        case .lock: core = .lock(try c.decode(WireLockEvent.self, forKey: .lock).core)
        case .undoExpired: core = .undoExpired(try flow())
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        func kind(_ kind: Kind, flow id: FlowID? = nil) throws {
            try c.encode(kind.rawValue, forKey: .kind)
            try c.encodeIfPresent(id?.rawValue, forKey: .flow)
        }
        switch core {
        case .flowQueued(let info):
            try kind(.flowQueued)
            try c.encode(WireFlowInfo(info), forKey: .flow)
        case .statusChanged(let id, let status):
            try kind(.statusChanged, flow: id)
            try c.encode(WireFlowStatus(status), forKey: .status)
        case .stepStarted(let id, let info):
            try kind(.stepStarted, flow: id)
            try c.encode(WireStepInfo(info), forKey: .step)
        case .stepFinished(let id, let step, let outcome):
            try kind(.stepFinished, flow: id)
            try c.encode(step.rawValue, forKey: .stepID)
            try c.encode(WireStepOutcome(outcome), forKey: .outcome)
        case .progress(let id, let step, let fraction):
            try kind(.progress, flow: id)
            try c.encode(step.rawValue, forKey: .stepID)
            try c.encode(fraction, forKey: .progress)
        case .stepRetrying(let id, let retry):
            try kind(.stepRetrying, flow: id)
            try c.encode(WireStepRetry(retry), forKey: .retry)
        case .stepReverting(let id, let info):
            try kind(.stepReverting, flow: id)
            try c.encode(WireStepInfo(info), forKey: .step)
        case .stepReverted(let id, let info):
            try kind(.stepReverted, flow: id)
            try c.encode(WireStepInfo(info), forKey: .step)
        case .revertFailed(let id, let info, let message):
            try kind(.revertFailed, flow: id)
            try c.encode(WireStepInfo(info), forKey: .step)
            try c.encode(message, forKey: .error)
        case .lock(let event):
            try kind(.lock)
            try c.encode(WireLockEvent(event), forKey: .lock)
        case .undoExpired(let id):
            try kind(.undoExpired, flow: id)
        }
    }
}
