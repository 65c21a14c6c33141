import Foundation

/// Where consoles put their sockets: one folder per user, one socket per process.
package enum ConsoleLocation {
    /// `$XDG_RUNTIME_DIR/taskflow` when the variable names a folder, else `/tmp/taskflow-<uid>`.
    package static var defaultFolder: String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/taskflow"
        }
        return "/tmp/taskflow-\(getuid())"
    }

    /// The socket of process `pid` in the default folder: `<folder>/<pid>.sock`.
    package static func defaultPath(pid: Int32 = getpid()) -> String {
        "\(defaultFolder)/\(pid).sock"
    }
}
