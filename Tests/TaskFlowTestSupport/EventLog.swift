import TaskFlow

/// Collects a manager's events from the moment of the call.
public final class EventLog: Sendable {
    private let log: StreamLog<FlowEvent>

    /// Starts collecting `manager`'s events.
    public init<State>(_ manager: TaskFlowManager<State>) { log = StreamLog(manager.events) }

    /// The events received so far, in order.
    public var events: [FlowEvent] { log.events }

    /// The statuses of one flow, in the order they arrived.
    public func statuses(of flow: FlowID) -> [FlowStatus] {
        events.compactMap { event in
            if case .statusChanged(flow, let status) = event { return status }
            return nil
        }
    }

    /// Waits until the flow's final status has reached this observer: events are delivered
    /// asynchronously, so they may still be on their way when `flow.value` returns.
    public func waitUntilFinished(_ flow: FlowID) async -> Bool {
        await eventually {
            events.contains { event in
                if case .statusChanged(flow, let status) = event { return status.isFinished }
                return false
            }
        }
    }

    /// Revert events of one flow as "reverting step"/"reverted step" strings, in order.
    public func reverts(of flow: FlowID, titles: [StepID: String]) -> [String] {
        events.compactMap { event in
            switch event {
            case .stepReverting(flow, let step): "reverting \(titles[step.id] ?? "?")"
            case .stepReverted(flow, let step): "reverted \(titles[step.id] ?? "?")"
            case .revertFailed(flow, let step, _): "failed \(titles[step.id] ?? "?")"
            default: nil
            }
        }
    }

    /// Step titles by id, from the stepStarted events of one flow.
    public func stepTitles(of flow: FlowID) -> [StepID: String] {
        var titles: [StepID: String] = [:]
        for case .stepStarted(flow, let step) in events { titles[step.id] = step.title }
        return titles
    }
}
