import Foundation

/// Whether a process of this machine still runs: what tells a program that exited from a
/// connection that was lost.
enum ProcessState {
    /// True while `pid` exists and is not a zombie (a killed program's parent may not have
    /// collected it yet; it runs no more).
    static func isRunning(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards)
        else { return true }
        return stat[afterName.upperBound...].first != "Z"
    }
}
