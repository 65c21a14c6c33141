import ArgumentParser
import Foundation
import TOMLSource
import TaskFlowStore
#if Postgres
import TaskFlowPostgres
#endif

/// `--store PATH` and `--json`, shared by every `taskflow jobs` and `taskflow flows` command.
struct StoreOptions: ParsableArguments {
    @Option(
        name: .customLong("store"),
        help: ArgumentHelp(
            "The job store: an SQLite file (default: $XDG_STATE_HOME/taskflow/jobs.sqlite, else ~/.local/state/taskflow/jobs.sqlite), or a PostgreSQL database, postgres://user@host:port/database?sslmode=verify-full&sslrootcert=ca.pem (the password from PGPASSWORD or ~/.pgpass; taskflow built with --traits Postgres).",
            valueName: "path-or-url"))
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

    /// Opens the store for `access`. Only `submit` creates one (and its folder); every other
    /// command on a store that does not exist says so instead of leaving an empty file behind,
    /// and the commands that only read (`list`, `show`, `workers`) open it read-only.
    /// `ifMissing` ends the message for a store file that does not exist.
    func open(_ access: StoreFileAccess, ifMissing: String = "submit a job first, or name one with --store") throws -> JobStore {
        try Self.open(at: resolvedPath, access: access, ifMissing: ifMissing)
    }

    /// ``openStore(at:access:ifMissing:lease:whenBusy:)`` from synchronous code: a store that
    /// cannot be opened ends the command with its one-line message and status 2; a wait for
    /// another process's write lock is said on stderr while it lasts.
    static func open(at path: String, access: StoreFileAccess, ifMissing: String, lease: Duration = .seconds(30)) throws -> JobStore {
        do {
            return try awaiting {
                try await openStore(at: path, access: access, ifMissing: ifMissing, lease: lease) { message in
                    printError(message.escapingControlCharacters)
                }
            }
        } catch let error as StoreOpeningError {
            throw failure(error.message)
        }
    }

    /// How messages and the dashboard name the store at `path`: the path, or the URL with its
    /// password redacted.
    static func displayName(of path: String) -> String {
        guard isPostgresURL(path) else { return path.escapingControlCharacters }
        #if Postgres
        return (try? PostgresURL(path).redacted) ?? "postgres://‹invalid URL›"
        #else
        return "postgres://…"
        #endif
    }

    /// Whether `path` names a PostgreSQL database rather than a file.
    static func isPostgresURL(_ path: String) -> Bool {
        path.hasPrefix("postgres://") || path.hasPrefix("postgresql://")
    }

    /// The job store at `path` — an SQLite file or a `postgres://` URL — the one way the command
    /// line opens one (`taskflow jobs`, the dashboard's `--store`). For a file, `.create` makes
    /// the store and its folder (owner-only) if needed; otherwise a missing file is an error that
    /// ends with `ifMissing`, rather than an empty store left behind by a typo, and `.read` opens
    /// it read-only. `whenBusy` hears when the file's write lock is held by another process and
    /// the store waits for it. A database gets its tables when it has none, whatever `access`
    /// says: it is there, named on purpose.
    static func openStore(
        at path: String, access: StoreFileAccess, ifMissing: String, lease: Duration = .seconds(30),
        whenBusy: (@Sendable (String) -> Void)? = nil
    ) async throws(StoreOpeningError) -> JobStore {
        guard isPostgresURL(path) else {
            return try openFile(at: path, access: access, ifMissing: ifMissing, lease: lease, whenBusy: whenBusy)
        }
        #if Postgres
        do {
            return try await JobStore.postgres(url: path, lease: lease)
        } catch {
            throw StoreOpeningError(message: error.description.escapingControlCharacters)
        }
        #else
        throw StoreOpeningError(message: "this taskflow was built without PostgreSQL support; "
            + "build it with: swift build --traits Postgres (or swift run --traits Postgres taskflow …)")
        #endif
    }

    /// The SQLite job store in the file at `path` (see ``openStore(at:access:ifMissing:lease:whenBusy:)``).
    private static func openFile(
        at path: String, access: StoreFileAccess, ifMissing: String, lease: Duration, whenBusy: (@Sendable (String) -> Void)?
    ) throws(StoreOpeningError) -> JobStore {
        guard !path.isEmpty else { throw StoreOpeningError(message: "--store needs a path") }
        if access == .create {
            try? FileManager.default.createDirectory(
                atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        } else if !FileManager.default.fileExists(atPath: path) {
            throw StoreOpeningError(message: "no job store at \(path.escapingControlCharacters); \(ifMissing)")
        }
        do {
            return try JobStore(path: path, access: access, lease: lease, whenBusy: whenBusy)
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
