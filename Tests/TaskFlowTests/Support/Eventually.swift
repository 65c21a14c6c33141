import Foundation
import TaskFlow

/// Waits until `condition` holds, polling every millisecond, for at most `seconds`.
/// Returns whether it held: tests assert on the result, so a slow machine only makes a test
/// slower, never wrong, and a real hang fails with a message instead of blocking the suite.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}

/// A failure the tests inject.
struct Boom: Error, Equatable, CustomStringConvertible {
    let name: String
    init(_ name: String = "boom") { self.name = name }
    var description: String { "Boom(\(name))" }
}

extension FlowStatus {
    /// Lets tests compare statuses by name.
    var isCompleted: Bool { name == "completed" }
}

/// Collects a manager's events from the moment of the call.
final class EventLog: Sendable {
    let recorder = Recorder<FlowEvent>()
    private let task: Task<Void, Never>

    init<State>(_ manager: TaskFlowManager<State>) {
        let stream = manager.events
        let recorder = recorder
        task = Task { for await event in stream { recorder.record(event) } }
    }

    deinit { task.cancel() }

    var events: [FlowEvent] { recorder.all }

    /// The statuses of one flow, in the order they arrived.
    func statuses(of flow: FlowID) -> [FlowStatus] {
        events.compactMap { event in
            if case .statusChanged(flow, let status) = event { return status }
            return nil
        }
    }

    /// Waits until the flow's final status has reached this observer: events are delivered
    /// asynchronously, so they may still be on their way when `flow.value` returns.
    func waitUntilFinished(_ flow: FlowID) async -> Bool {
        await eventually {
            events.contains { event in
                if case .statusChanged(flow, let status) = event { return status.isFinished }
                return false
            }
        }
    }

    /// Revert events of one flow as "reverting step"/"reverted step" strings, in order.
    func reverts(of flow: FlowID, titles: [StepID: String]) -> [String] {
        events.compactMap { event in
            switch event {
            case .stepReverting(flow, let step): "reverting \(titles[step] ?? "?")"
            case .stepReverted(flow, let step): "reverted \(titles[step] ?? "?")"
            case .revertFailed(flow, let step, _): "failed \(titles[step] ?? "?")"
            default: nil
            }
        }
    }

    /// Step titles by id, from the stepStarted events of one flow.
    func stepTitles(of flow: FlowID) -> [StepID: String] {
        var titles: [StepID: String] = [:]
        for case .stepStarted(flow, let step) in events { titles[step.id] = step.title }
        return titles
    }
}
