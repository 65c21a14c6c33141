import DashboardKit

/// A source whose flows are durable: its ``FlowSource/start()`` first rolls back what a crash of
/// an earlier run interrupted (its recovering flows show like any other), then submits its new
/// flows. The start-up says what the recovery did under its "Start the flows" step.
protocol RecoveringFlowSource: FlowSource {
    /// What the recovery did, in a few words (`recovered 2 interrupted flows`); nil until
    /// ``FlowSource/flowsDueAtStartSubmitted()`` has returned.
    var recoveryNote: String? { get }
}
