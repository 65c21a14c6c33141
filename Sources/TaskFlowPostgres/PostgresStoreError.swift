/// Why a PostgreSQL job store could not be opened or used. Each description is one line naming
/// what to fix, and never holds a password: servers are named by ``PostgresURL/redacted``.
public enum PostgresStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL is not a `postgres://` URL this store understands.
    case invalidURL(String)
    /// The server could not be reached (refused, unknown host, timed out).
    case unreachable(server: String, reason: String)
    /// The server refused the user's password, or asked for one none was given for.
    case authenticationFailed(server: String, user: String, reason: String)
    /// The TLS connection the URL's `sslmode` asks for could not be made or verified.
    case tls(server: String, reason: String)
    /// The database holds a job store written by a newer TaskFlow; it was left untouched.
    case newerSchema(server: String, version: Int)
    /// The server answered an error: its message and SQLSTATE.
    case server(server: String, message: String)

    /// One line naming the server (its password redacted) and what is wrong.
    public var description: String {
        switch self {
        case .invalidURL(let reason):
            "not a PostgreSQL URL: \(reason) (expected postgres://user@host:port/database?sslmode=require)"
        case .unreachable(let server, let reason):
            "\(server): cannot reach the PostgreSQL server: \(reason)"
        case .authenticationFailed(let server, let user, let reason):
            "\(server): the server refused user \"\(user)\": \(reason) (set PGPASSWORD or add the password to ~/.pgpass)"
        case .tls(let server, let reason):
            "\(server): TLS failed: \(reason)"
        case .newerSchema(let server, let version):
            "\(server): the job store there was written by a newer TaskFlow (schema \(version)); left untouched"
        case .server(let server, let message):
            "\(server): \(message)"
        }
    }
}
