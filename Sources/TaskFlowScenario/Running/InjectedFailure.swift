/// The error a step throws when the scenario makes it fail on purpose.
public struct InjectedFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step's title.
    public let step: String
    /// The fraction of the step at which it failed.
    public let fraction: Double

    /// Creates the failure of `step` at `fraction`.
    public init(step: String, fraction: Double) {
        self.step = step
        self.fraction = fraction
    }

    /// One line for the event log.
    public var description: String { "'\(step)' failed on purpose at \(Int((fraction * 100).rounded()))%" }
}

/// Thrown when a scenario built in code puts a step where the engine cannot run it (an update
/// inside a group or a task, a task inside a task). Loaded files never do: validation rejects them.
public struct MisplacedStep: Error, Sendable, Equatable, CustomStringConvertible {
    /// The step's title.
    public let step: String
    /// Why it cannot run there.
    public let reason: String

    /// One line for the event log.
    public var description: String { "'\(step)' cannot run here: \(reason)" }
}
