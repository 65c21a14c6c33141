/// Why the dashboard's loop ended, which decides the process's exit status.
public enum DashboardExit: Sendable, Hashable {
    /// The user quit, or the program an attached dashboard watched ended its feed. `leftover`
    /// names flows still active at a second `q` (empty after a clean rollback).
    case quit(leftover: [String])
    /// Every flow of the scenario ended (headless mode); `incompleteRollbacks` counts flows whose
    /// rollback left reverts failed.
    case scenarioEnded(incompleteRollbacks: Int)
    /// A signal asked the program to end.
    case signal(Int32)
    /// The start-up failed (a bad theme, an unreadable scenario): `message` says at which step
    /// and why. Bad input: status 2.
    case startUpFailed(message: String)

    /// The process exit status: 0 on quit, 128 + signal, 1 after an incomplete rollback.
    public var status: Int32 {
        switch self {
        case .quit: 0
        case .scenarioEnded(let incomplete): incomplete == 0 ? 0 : 1
        case .signal(let number): 128 + number
        case .startUpFailed: 2
        }
    }
}
