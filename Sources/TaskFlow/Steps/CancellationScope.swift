import Synchronization

/// A cooperative cancellation flag that also reads its parent's: a group child sees both its
/// group's cancel (a sibling failed) and its flow's cancel.
///
/// TaskFlow deliberately does not use Swift task cancellation for steps: a cancelled Swift task
/// makes `Task.sleep` and other awaits throw mid-step, which would interrupt a step half-way
/// and leave work that no revert covers. Here a step always finishes unless it chooses to stop
/// by checking ``TaskContext/isCancelled``, and reverts always run in full.
final class CancellationScope: Sendable {
    private let flag = Atomic<Bool>(false)
    private let parent: CancellationScope?

    init(parent: CancellationScope? = nil) { self.parent = parent }

    var isCancelled: Bool {
        flag.load(ordering: .acquiring) || (parent?.isCancelled ?? false)
    }

    /// Sets the flag; returns true only for the call that set it.
    @discardableResult
    func cancel() -> Bool {
        !flag.exchange(true, ordering: .acquiringAndReleasing)
    }
}
