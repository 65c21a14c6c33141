import Foundation
import TaskFlowTestSupport

/// The built `taskflow` binary run from a `/bin/sh` script, for what `Process` cannot set up:
/// closed or full standard descriptors, pipes whose reader goes away, signals ignored.
enum TaskflowShell {
    /// The binary's path, quoted for the shell.
    static var binary: String { "'\(Tmux.binary)'" }

    /// Runs `script` with `sh -c` (no signal blocked or ignored), waiting off the cooperative
    /// pool; returns its exit status (-1 when a signal ended it) and everything it wrote to
    /// stdout and stderr, in order.
    static func run(_ script: String) async throws -> (status: Int32, output: String) {
        try await offThePool { try Tmux.spawn(["/bin/sh", "-c", script]) }
    }
}
