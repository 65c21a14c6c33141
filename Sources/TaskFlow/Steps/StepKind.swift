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
