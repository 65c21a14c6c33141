import TaskFlow
import TaskFlowTestSupport

/// Collects a boot's progress events from before it runs until its stream ends.
final class ProgressLog: Sendable {
    private let recorder = Recorder<BootEvent>()
    private let task: Task<Void, Never>

    init<Event>(_ boot: Boot<Event>) {
        let stream = boot.progress()
        let recorder = recorder
        task = Task { for await event in stream { recorder.record(event) } }
    }

    /// Every event, once the stream has finished (the boot ended).
    func events() async -> [BootEvent] {
        await task.value
        return recorder.all
    }

    /// The events received so far, without waiting for the end.
    var received: [BootEvent] { recorder.all }

    /// The titles of the tasks reported skipped.
    func skipped() async -> [String] {
        await events().compactMap { event in
            if case .taskSkipped(let task) = event { return task }
            return nil
        }
    }
}

/// When something happened in a test, in one order shared by every task: a recorder's order is
/// its lock's order, so "A before B" in the list means A happened before B.
enum Mark: Sendable, Hashable {
    case start(String)
    case end(String)
}

extension Recorder where Element == Mark {
    /// The position of `mark`, or nil if it never happened.
    func position(of mark: Mark) -> Int? { all.firstIndex(of: mark) }
}
