import Synchronization
import TaskFlow
import TaskFlowSupport

/// One awaited async call the optimiser cannot remove: the baseline for "a step that does
/// nothing" and the work every raw child or revert does.
@inline(never)
func opaqueAsyncCall(_ value: Int) async -> Int {
    value &+ 1
}

/// A flag shared between tasks.
final class SharedFlag: Sendable {
    private let value = Atomic(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

/// When a step ended and when the first revert started, written from inside a flow.
final class CancelProbe: Sendable {
    private struct Marks {
        var stepEnd: ContinuousClock.Instant?
        var revertStart: ContinuousClock.Instant?
    }

    private let marks = Protected(Marks())

    func stepEnded() { marks.withLock { $0.stepEnd = .now } }

    /// Only the first revert counts.
    func revertStarted() {
        let now = ContinuousClock.now
        marks.withLock { marks in
            if marks.revertStart == nil { marks.revertStart = now }
        }
    }

    /// Nanoseconds from the step's end to the first revert's start, if both happened.
    var latency: Double? {
        marks.withLock { marks in
            guard let end = marks.stepEnd, let start = marks.revertStart else { return nil }
            return nanoseconds(start - end)
        }
    }
}

/// When a flow body (or a raw critical section) ran.
struct Interval: Sendable {
    let start: ContinuousClock.Instant
    let end: ContinuousClock.Instant
}
