/// Why a ``Boot`` refused to run. Each is found by ``Boot/run()`` before any task starts, so a
/// boot that throws a `BootError` has run nothing.
///
/// A task's own failure is not wrapped in a `BootError`: `run()` rethrows the task's error as is,
/// and the boot's progress stream (``BootEvent/taskFailed(task:at:elapsed:error:)``) names the
/// task it came from.
public enum BootError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Two tasks (or observers) share this title: `after:` lists could not tell them apart.
    case duplicateTitle(boot: String, title: String)
    /// `task` lists `dependency` in its `after:`, but no task or observer has that title.
    case unknownDependency(boot: String, task: String, dependency: String)
    /// The tasks depend on each other in a circle, so none of them could ever start. `path`
    /// starts and ends with the same title; each title runs after the one before it, e.g.
    /// `["Open store", "Recover jobs", "Open store"]`.
    case cycle(boot: String, path: [String])
    /// `run()` was called on a boot that had already started: a boot runs once.
    case alreadyStarted(boot: String)

    /// One line naming the boot and the offending titles, e.g.
    /// `boot "Start": cycle Open store → Recover jobs → Open store`.
    public var description: String {
        switch self {
        case let .duplicateTitle(boot, title):
            "boot \"\(boot)\": two tasks are titled \"\(title)\""
        case let .unknownDependency(boot, task, dependency):
            "boot \"\(boot)\": task \"\(task)\" runs after \"\(dependency)\", which is not a task of this boot"
        case let .cycle(boot, path):
            "boot \"\(boot)\": cycle \(path.joined(separator: " → "))"
        case let .alreadyStarted(boot):
            "boot \"\(boot)\": run() was already called; a boot runs once"
        }
    }
}
