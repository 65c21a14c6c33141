import ArgumentParser
import Foundation
import TOMLSource
import TaskFlowStore

/// `--store PATH` and `--json`, shared by every `taskflow jobs` command.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The job store, an SQLite file (default: $XDG_STATE_HOME/taskflow/jobs.sqlite, else ~/.local/state/taskflow/jobs.sqlite).",
            valueName: "path"))
    var path: String?

    @Flag(help: "Print JSON instead of text.")
    var json = false

    /// The file the commands use: `--store`, else the default location.
    var resolvedPath: String { path ?? Self.defaultPath }

    /// `$XDG_STATE_HOME/taskflow/jobs.sqlite`, else `~/.local/state/taskflow/jobs.sqlite`: job
    /// state is neither configuration nor a cache (XDG Base Directory specification).
    static var defaultPath: String { stateDirectory + "/jobs.sqlite" }

    /// `$XDG_STATE_HOME/taskflow`, else `~/.local/state/taskflow`.
    static var stateDirectory: String {
        let environment = ProcessInfo.processInfo.environment
        let state = environment["XDG_STATE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/state").path
        return state + "/taskflow"
    }

    /// Opens the store. Only `submit` creates one (and its folder); every other command on a
    /// store that does not exist says so instead of leaving an empty file behind.
    func open(creating: Bool) throws -> JobStore {
        let path = resolvedPath
        guard !path.isEmpty else { throw failure("--store needs a path") }
        if creating {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } else if !FileManager.default.fileExists(atPath: path) {
            throw failure("no job store at \(path.escapingControlCharacters); submit a job first, or name one with --store")
        }
        do {
            return try JobStore(path: path)
        } catch {
            throw failure("\(error)".escapingControlCharacters)
        }
    }
}
