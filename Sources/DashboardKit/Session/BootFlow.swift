import TaskFlow

/// A ``Boot`` drawn as the dashboard's first flow: the boot's title as the flow, its tasks
/// (observers left out) as steps with their timings, a failed task with its error, tasks the
/// failure skipped as cancelled, and what a task reports once done (a recovery's count) as a
/// step inside it. A read flow, so nothing offers to cancel or undo it.
package struct BootFlow: Sendable {
    /// The row's id: 0, below every id an engine gives (they start at 1).
    package static let id = FlowID(0)

    private var steps: [String: StepID] = [:]
    /// The next id of a note's step: after the tasks' ids.
    private var nextNote = StepID(0)
    private let note: @Sendable (String) -> String?

    /// Nothing seen yet. `note` is asked, as each task finishes, what to show under it: the
    /// task reports it before it returns, so it is there by then.
    package init(note: @escaping @Sendable (String) -> String? = { _ in nil }) {
        self.note = note
    }

    /// The flow events that show `event`.
    package mutating func events(for event: BootEvent) -> [FlowEvent] {
        switch event {
        case .started(let boot, let tasks):
            let shown = tasks.filter { !$0.isObserver }
            steps = Dictionary(uniqueKeysWithValues: shown.enumerated().map { ($1.title, StepID($0 + 1)) })
            nextNote = StepID(shown.count + 1)
            return [.flowQueued(FlowInfo(id: Self.id, title: boot, access: .read)), .statusChanged(Self.id, .running)]
        case .taskStarted(let task, _):
            return step(task).map { [.stepStarted(Self.id, $0)] } ?? []
        case .taskFinished(let task, _, _):
            guard let step = step(task) else { return [] }
            return [.stepFinished(Self.id, step.id, .completed)] + noted(under: step)
        case .taskFailed(let task, _, _, let error):
            return step(task).map { [.stepFinished(Self.id, $0.id, .failed(error))] } ?? []
        case .taskSkipped(let task):
            return step(task).map { [.stepStarted(Self.id, $0), .stepFinished(Self.id, $0.id, .cancelled)] } ?? []
        case .finished(_, _, let failure):
            return [.statusChanged(Self.id, failure.map { .failed(BootFailure(message: $0)) } ?? .completed)]
        }
    }

    /// The note of `step`'s task, if it has one, as a step inside it, done.
    private mutating func noted(under step: StepInfo) -> [FlowEvent] {
        guard let text = note(step.title) else { return [] }
        let shown = StepInfo(id: nextNote, parent: step.id, title: text, kind: .task)
        nextNote = StepID(nextNote.rawValue + 1)
        return [.stepStarted(Self.id, shown), .stepFinished(Self.id, shown.id, .completed)]
    }

    private func step(_ task: String) -> StepInfo? {
        steps[task].map { StepInfo(id: $0, parent: nil, title: task, kind: .task) }
    }
}

/// Why a boot failed, as the boot flow's status carries it.
struct BootFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
