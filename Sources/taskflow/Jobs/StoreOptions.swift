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
        do {
            return try Self.openStore(
                at: resolvedPath, creating: creating, ifMissing: "submit a job first, or name one with --store")
        } catch {
            throw failure(error.message)
        }
    }

    /// The job store at `path`, the one way the command line opens one (`taskflow jobs`, the
    /// dashboard's `--store`, the outbox demo). `creating`, it makes the store and its folder
    /// (owner-only) if needed; otherwise a missing file is an error that ends with `ifMissing`,
    /// rather than an empty store left behind by a typo.
    static func openStore(
        at path: String, creating: Bool, ifMissing: String, lease: Duration = .seconds(30)
    ) throws(StoreOpeningError) -> JobStore {
        guard !path.isEmpty else { throw StoreOpeningError(message: "--store needs a path") }
        if creating {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } else if !FileManager.default.fileExists(atPath: path) {
            throw StoreOpeningError(message: "no job store at \(path.escapingControlCharacters); \(ifMissing)")
        }
        do {
            return try JobStore(path: path, lease: lease)
        } catch {
            throw StoreOpeningError(message: "\(error)".escapingControlCharacters)
        }
    }
}

/// A job store that cannot be opened, said in one line (control characters escaped).
struct StoreOpeningError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
