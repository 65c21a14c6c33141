import TaskFlow

/// A ``FlowSnapshot`` as it travels: `{"info", "status", "currentStep"?, "progress"?, "steps",
/// "submitted"?}`, `submitted` in seconds since the feed's origin (negative before it; new in
/// protocol 1.1, so a 1.0 program sends none).
package struct WireFlowSnapshot: Codable, Sendable {
    /// The flow, without its steps and times.
    private let flow: FlowSnapshot
    private let steps: [WireStepSnapshot]
    private let submitted: Double?

    /// The wire form of `core`, its instants given as seconds since `origin`.
    package init(_ core: FlowSnapshot, origin: ContinuousClock.Instant) {
        flow = FlowSnapshot(info: core.info, status: core.status, currentStep: core.currentStep, progress: core.progress)
        steps = core.steps.map { WireStepSnapshot($0, origin: origin) }
        submitted = core.submitted.map { ($0 - origin).wireSeconds }
    }

    /// The flow's status.
    package var status: FlowStatus { flow.status }

    /// The flow, its times placed on a clock whose instant `origin` is the feed's origin.
    package func core(origin: ContinuousClock.Instant) -> FlowSnapshot {
        FlowSnapshot(
            info: flow.info, status: flow.status, currentStep: flow.currentStep, progress: flow.progress,
            steps: steps.map { $0.core(origin: origin) }, submitted: submitted.map { .wire($0, after: origin) })
    }

    private enum CodingKeys: String, CodingKey { case info, status, currentStep, progress, steps, submitted }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        flow = FlowSnapshot(
            info: try c.decode(WireFlowInfo.self, forKey: .info).core,
            status: try c.decode(WireFlowStatus.self, forKey: .status).core,
            currentStep: try c.decodeIfPresent(WireStepInfo.self, forKey: .currentStep)?.core,
            progress: try c.decodeIfPresent(Double.self, forKey: .progress))
        steps = try c.decodeIfPresent([WireStepSnapshot].self, forKey: .steps) ?? []
        submitted = try c.decodeIfPresent(Double.self, forKey: .submitted)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(WireFlowInfo(flow.info), forKey: .info)
        try c.encode(WireFlowStatus(flow.status), forKey: .status)
        try c.encodeIfPresent(flow.currentStep.map(WireStepInfo.init), forKey: .currentStep)
        try c.encodeIfPresent(flow.progress, forKey: .progress)
        try c.encode(steps, forKey: .steps)
        try c.encodeIfPresent(submitted, forKey: .submitted)
    }
}
