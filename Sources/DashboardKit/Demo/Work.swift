import TaskFlow

/// Simulated background work: awaits (never blocks a thread) in small slices, reporting
/// progress, and stops early when the flow is cancelled so a cancel rolls back at once.
struct Work: Sendable {
    /// Multiplies every duration: 1 for the demo's natural pace, less to run it faster.
    let pace: Double

    /// Works for about `seconds`, in `slices` steps.
    func run<State>(_ task: TaskContext<State>, seconds: Double, slices: Int = 20) async throws {
        for slice in 1...slices {
            try await pause(seconds / Double(slices))
            task.progress(Double(slice) / Double(slices))
            if task.isCancelled, slice < slices { throw CancellationError() }
        }
    }

    /// Waits `seconds` (scaled by ``pace``): a revert or a short step.
    func pause(_ seconds: Double) async throws {
        try await Task.sleep(for: .milliseconds(Int(seconds * pace * 1000)))
    }
}
