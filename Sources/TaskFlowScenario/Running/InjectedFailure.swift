/// The error a step throws when the scenario makes it fail on purpose.
package struct InjectedFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step's title.
    package let step: String
    /// The fraction of the step at which it failed.
    package let fraction: Double

    /// Creates the failure of `step` at `fraction`.
    package init(step: String, fraction: Double) {
        self.step = step
        self.fraction = fraction
    }

    /// One line for the event log.
    package var description: String { "'\(step)' failed on purpose at \(Int((fraction * 100).rounded()))%" }
}

/// Thrown when a scenario built in code puts a step where the engine cannot run it (an update
/// inside a group or a task, a task inside a task). Loaded files never do: validation rejects them.
package struct MisplacedStep: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step's title.
    package let step: String
    /// Why it cannot run there.
    package let reason: String

    /// One line for the event log.
    package var description: String { "'\(step)' cannot run here: \(reason)" }
}
