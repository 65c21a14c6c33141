/// A step's identity within its flow, assigned in the order steps start.
public struct StepID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The start number, from 1.
    public let rawValue: Int

    /// Wraps a start number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Earlier-started steps order first.
    public static func < (lhs: StepID, rhs: StepID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "step <number>".
    public var description: String { "step \(rawValue)" }
}

/// What kind of work a step is; decides where it and its revert run.
public enum StepKind: String, Sendable, Hashable {
    /// A synchronous foreground step on the main actor (`main(apply:revert:)`).
    case main
    /// A foreground read without a revert (`main(query:)`).
    case query
    /// An asynchronous background step (`task(title:apply:revert:)`).
    case task
    /// A change of the manager's state (`update`), reverted by restoring the previous value.
    case update
    /// Children run in parallel.
    case group
    /// Children run one after another.
    case sequence
}

/// Describes a step when it starts.
public struct StepInfo: Sendable, Hashable {
    /// Its identity within the flow.
    public let id: StepID
    /// The group, sequence or background step it runs inside, if any.
    public let parent: StepID?
    /// Its title.
    public let title: String
    /// Its kind.
    public let kind: StepKind

    /// Creates a step description.
    public init(id: StepID, parent: StepID?, title: String, kind: StepKind) {
        self.id = id
        self.parent = parent
        self.title = title
        self.kind = kind
    }
}

/// How a step's `apply` ended.
public enum StepOutcome: Sendable, Hashable {
    /// Applied; its revert is registered.
    case completed
    /// Stopped early because its flow or group was cancelled; not reverted itself.
    case cancelled
    /// Threw; not reverted itself. The message is the error's description.
    case failed(String)
}
