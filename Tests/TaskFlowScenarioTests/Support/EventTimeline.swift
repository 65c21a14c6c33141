import DashboardKit
import TaskFlow

/// A manager's events as short lines per flow title: "start Upload post", "failed Upload
/// video", "reverting Save draft", "status cancelled". The words of steps and flows are the
/// dashboard's (``StepStatus/name``, ``FlowStatus/name``), so tests read what users read.
struct EventTimeline {
    struct Line: Equatable, CustomStringConvertible {
        let flow: String
        let text: String
        var description: String { "\(flow): \(text)" }
    }

    private(set) var lines: [Line] = []

    init(_ events: [FlowEvent]) {
        var flows: [FlowID: String] = [:]
        var steps: [FlowID: [StepID: String]] = [:]
        for event in events {
            switch event {
            case .flowQueued(let info):
                flows[info.id] = info.title
            case .stepStarted(let id, let step):
                steps[id, default: [:]][step.id] = step.title
                lines.append(Line(flow: flows[id] ?? "?", text: "start \(step.title)"))
            case .stepFinished(let id, let step, let outcome):
                lines.append(Line(flow: flows[id] ?? "?", text: "\(StepStatus(outcome).name) \(steps[id]?[step] ?? "?")"))
            case .stepReverting(let id, let step):
                lines.append(Line(flow: flows[id] ?? "?", text: "\(StepStatus.reverting.name) \(step.title)"))
            case .statusChanged(let id, let status) where status.isFinished:
                lines.append(Line(flow: flows[id] ?? "?", text: "status \(status.name)"))
            default:
                break
            }
        }
    }

    /// The lines of `flow`, as text.
    func of(_ flow: String) -> [String] { lines.filter { $0.flow == flow }.map(\.text) }

    /// The steps of `flow` reverted, in the order their reverts began.
    func reverted(in flow: String) -> [String] {
        of(flow).filter { $0.hasPrefix("reverting ") }.map { String($0.dropFirst("reverting ".count)) }
    }

    /// Where `text` first appears in `flow`'s lines (Int.max when it does not).
    func index(of text: String, in flow: String) -> Int { of(flow).firstIndex(of: text) ?? .max }
}

/// Collects `stream` until `done` holds for what was collected, or `seconds` pass: a generous
/// deadline, so a slow machine only makes the test slower.
func collect(
    _ stream: AsyncStream<FlowEvent>, within seconds: Int = 60,
    until done: @escaping @Sendable ([FlowEvent]) -> Bool
) async -> [FlowEvent] {
    await withTaskGroup(of: [FlowEvent]?.self) { race in
        race.addTask {
            var events: [FlowEvent] = []
            for await event in stream {
                events.append(event)
                if done(events) { break }
            }
            return events
        }
        race.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        let first = await race.next() ?? nil
        race.cancelAll()
        return first ?? []
    }
}

/// True once `count` flows reached a final status.
func finishedFlows(_ count: Int) -> @Sendable ([FlowEvent]) -> Bool {
    { events in
        events.count { if case .statusChanged(_, let status) = $0 { status.isFinished } else { false } } >= count
    }
}
