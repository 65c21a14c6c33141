import Foundation
import TOMLKit
import TOMLSource

/// Where the preferences live and how they are read and written: `--config PATH`, else
/// `$XDG_CONFIG_HOME/taskflow/config.toml`, else `~/.config/taskflow/config.toml`.
///
/// Reading checks the file like every input file (a regular file, bounded, UTF-8, valid TOML,
/// known keys) and reports each problem at its `file:line:column`; a file that is not there is
/// no preference at all. Writing is atomic (a temporary file beside it, flushed, renamed over
/// it), owner-only (0600, its folder 0700 when created), and may fail: the dashboard says so in
/// its log and goes on, since a preference not saved never justifies stopping the work shown.
package struct PreferencesFile: Sendable, Hashable {
    /// The file's path.
    package let path: String

    /// The file at `path`.
    package init(path: String) {
        self.path = path
    }

    /// The file to use: `explicit` (`--config`), else under `XDG_CONFIG_HOME` when it is an
    /// absolute path (the XDG rule: a relative one is ignored), else under `HOME`; nil when
    /// neither is set, so nothing is read or written.
    package static func located(explicit: String?, environment: [String: String]) -> PreferencesFile? {
        if let explicit { return PreferencesFile(path: explicit) }
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            return PreferencesFile(path: config + "/taskflow/config.toml")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return PreferencesFile(path: home + "/.config/taskflow/config.toml")
    }

    /// The preferences the file holds; none when it does not exist (nor its folder, or a file
    /// stands where a folder of its path should: there is nothing to read there, and the first
    /// write says why it cannot be made).
    package func load(_ parser: PreferencesParser) throws(PreferencesError) -> Preferences {
        var status = stat()
        if lstat(path, &status) != 0, errno == ENOENT || errno == ENOTDIR { return Preferences() }
        let text: String
        do {
            text = try SourceFile.read(path: path, file: path, kind: "preferences file")
        } catch {
            throw PreferencesError(error.diagnostics)
        }
        return try parser.parse(text, file: path)
    }

    /// Writes `preferences` in place of the file's contents, atomically and owner-only.
    package func save(_ preferences: Preferences) throws(PreferencesWriteError) {
        let folder = (path as NSString).deletingLastPathComponent
        try makeFolder(folder.isEmpty ? "." : folder)
        let temporary = (folder.isEmpty ? "." : folder) + "/.\((path as NSString).lastPathComponent).\(getpid()).tmp"
        let bytes = Array(Self.text(of: preferences).utf8)
        // A temporary left by a crashed writer with this pid is ours to replace.
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("cannot create \(temporary)") }
        let written = Self.write(bytes, to: descriptor) && fchmod(descriptor, 0o600) == 0 && fsync(descriptor) == 0
        let code = errno
        close(descriptor)
        guard written else {
            unlink(temporary)
            throw failure("cannot write \(temporary)", code: code)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw failure("cannot replace \(path)", code: code)
        }
    }

    /// The TOML the file holds for `preferences`, with a first line saying who writes it.
    package static func text(of preferences: Preferences) -> String {
        let table = TOMLTable()
        if let theme = preferences.theme { table["theme"] = theme }
        if let mouse = preferences.mouse { table["mouse"] = mouse }
        if let history = preferences.history { table["history"] = history }
        if !preferences.sorts.isEmpty {
            let sorts = TOMLTable()
            for (view, sort) in preferences.sorts {
                let entry = TOMLTable(inline: true)
                entry["column"] = sort.column
                entry["order"] = sort.ascending ? "ascending" : "descending"
                sorts[view] = entry
            }
            table["sort"] = sorts
        }
        if let warnings = preferences.warnings {
            // Whole: the keys a file left out are written at the defaults they took.
            let thresholds = TOMLTable()
            thresholds["writer-read-phases"] = warnings.writerReadPhases
            thresholds["writer-wait-seconds"] = warnings.writerWait.seconds
            thresholds["step-stall-seconds"] = warnings.stepStall.seconds
            thresholds["job-retries"] = warnings.jobRetries
            table["warnings"] = thresholds
        }
        let header = "# taskflow's dashboard preferences, rewritten when you pick a theme (t) or a sort (< > i); comments are not kept.\n"
        return header + table.convert(to: .toml) + "\n"
    }

    /// Creates `folder` (and its parents) owner-only when missing.
    private func makeFolder(_ folder: String) throws(PreferencesWriteError) {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue { return }
        do {
            try FileManager.default.createDirectory(
                atPath: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw PreferencesWriteError(path: path, reason: "cannot create \(folder): \((error as NSError).localizedDescription)")
        }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { return false }
            offset += count
        }
        return true
    }

    private func failure(_ what: String, code: Int32 = errno) -> PreferencesWriteError {
        PreferencesWriteError(path: path, reason: "\(what): \(String(cString: strerror(code)))")
    }
}

/// Why the preferences could not be saved; shown in the dashboard's log, never fatal.
package struct PreferencesWriteError: Error, Hashable, CustomStringConvertible {
    /// The preferences file.
    package let path: String
    /// What failed, with the system's reason.
    package let reason: String

    package var description: String { "preferences not saved to \(path): \(reason)" }
}
