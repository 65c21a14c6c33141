import TaskFlow

/// A ``FlowSnapshot`` as it travels: `{"info", "status", "currentStep"?, "progress"?, "steps"}`.
package struct WireFlowSnapshot: Codable, Sendable {
    /// The flow.
    package let core: FlowSnapshot

    /// The wire form of `core`.
    package init(_ core: FlowSnapshot) { self.core = core }

    private enum CodingKeys: String, CodingKey { case info, status, currentStep, progress, steps }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        core = FlowSnapshot(
            info: try c.decode(WireFlowInfo.self, forKey: .info).core,
            status: try c.decode(WireFlowStatus.self, forKey: .status).core,
            currentStep: try c.decodeIfPresent(WireStepInfo.self, forKey: .currentStep)?.core,
            progress: try c.decodeIfPresent(Double.self, forKey: .progress),
            steps: try c.decodeIfPresent([WireStepSnapshot].self, forKey: .steps)?.map(\.core) ?? [])
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(WireFlowInfo(core.info), forKey: .info)
        try c.encode(WireFlowStatus(core.status), forKey: .status)
        try c.encodeIfPresent(core.currentStep.map(WireStepInfo.init), forKey: .currentStep)
        try c.encodeIfPresent(core.progress, forKey: .progress)
        try c.encode(core.steps.map(WireStepSnapshot.init), forKey: .steps)
    }
}
