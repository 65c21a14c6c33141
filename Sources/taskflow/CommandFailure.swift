import DashboardKit

/// A problem that ends taskflow, thrown rather than printed where it is met: whoever ends the
/// program says it, once, when nothing else holds the terminal — ``TaskflowCommand`` for a
/// command, the start-up's report for a start-up step (after the dashboard gave the screen
/// back). Printed where it was met, a problem in a start-up step went to a screen the dashboard
/// then drew over, and only the bare exit code that followed it was left to read.
struct CommandFailure: Error, CustomStringConvertible {
    /// The problem in words, one line, without the `taskflow: ` prefix.
    let message: String
    /// The process's exit status.
    let status: Int32

    var description: String { message }
}

/// A usage problem: `taskflow: <message>` on stderr and exit status 2, once it ends the program.
func failure(_ message: String) -> CommandFailure {
    CommandFailure(message: message, status: 2)
}

/// Writes `taskflow: <message>` to stderr.
func printError(_ message: String) {
    OutputWriter.standardError.write("taskflow: \(message)\n")
}
