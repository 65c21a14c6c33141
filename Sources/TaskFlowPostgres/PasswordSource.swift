import Foundation

/// Where a PostgreSQL password comes from, as libpq looks for it: the URL, then `PGPASSWORD`,
/// then the password file (`PGPASSFILE`, else `~/.pgpass`: lines of
/// `host:port:database:user:password`, `*` matching anything, `\:` and `\\` escaped, used only
/// when no one but its owner can read it, as libpq insists).
enum PasswordSource {
    static func password(
        for url: PostgresURL, environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> String? {
        if let password = url.password { return password }
        if let password = environment["PGPASSWORD"] { return password }
        let path = environment["PGPASSFILE"] ?? (environment["HOME"].map { $0 + "/.pgpass" } ?? "")
        return passwordFile(at: path).flatMap { lookUp(url, in: $0) }
    }

    /// The file's text, if it exists and only its owner may read or write it.
    private static func passwordFile(at path: String) -> String? {
        var status = stat()
        guard !path.isEmpty, stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
              status.st_mode & (S_IRWXG | S_IRWXO) == 0
        else { return nil }
        return try? String(contentsOfFile: path, encoding: .utf8)
    }

    /// The password of the first line matching `url`.
    static func lookUp(_ url: PostgresURL, in text: String) -> String? {
        let wanted = [url.host, String(url.port), url.database, url.user]
        for line in text.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = split(line)
            guard fields.count == 5 else { continue }
            if zip(fields, wanted).allSatisfy({ $0 == "*" || $0 == $1 }) { return fields[4] }
        }
        return nil
    }

    /// A line's fields, split at unescaped colons, escapes removed.
    private static func split(_ line: Substring) -> [String] {
        var fields = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }
}
