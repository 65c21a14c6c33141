/// One task or observer of a boot, as it was added: what ``BootGraph`` validates and the
/// scheduler runs.
struct BootNode: Sendable {
    /// The unique title other tasks name in their `after:` lists.
    let title: String
    /// Titles of the tasks that must succeed before this one starts.
    let after: [String]
    /// The task's work; nil for an observer, which is done as soon as the boot starts.
    let body: (@Sendable () async throws -> Void)?

    /// How ``BootEvent/started(boot:tasks:)`` describes this node.
    var info: BootTaskInfo { BootTaskInfo(title: title, after: after, isObserver: body == nil) }
}
