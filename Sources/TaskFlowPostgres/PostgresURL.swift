import Foundation

/// A `postgres://` (or `postgresql://`) URL as libpq reads one:
/// `postgres://user[:password]@host[:port]/database?sslmode=require&sslrootcert=/path/ca.pem`.
///
/// The password should not be in the URL — it would show in `ps` and shell history — but
/// in `PGPASSWORD` or `~/.pgpass` (see ``PasswordSource``); a URL password is accepted for
/// programs that build the URL themselves. ``redacted`` is the only form ever shown.
public struct PostgresURL: Sendable, Equatable {
    /// How the connection is secured, with libpq's `sslmode` names.
    public enum TLSMode: String, Sendable, Equatable, CaseIterable {
        /// No TLS.
        case disable
        /// TLS if the server offers it, else plain (libpq's default).
        case prefer
        /// TLS or nothing, without checking the server's certificate.
        case require
        /// TLS, the certificate signed by `sslrootcert` (or the system's roots) and naming the host.
        case verifyFull = "verify-full"
    }

    /// The user name.
    public let user: String
    /// The password written in the URL, if any.
    let password: String?
    /// The server's host name or address.
    public let host: String
    /// The server's port.
    public let port: Int
    /// The database.
    public let database: String
    /// The `sslmode`.
    public let tls: TLSMode
    /// `sslrootcert`: the CA file that signs the server's certificate, for `verify-full`.
    public let rootCertificate: String?

    /// Reads `text`; throws ``PostgresStoreError/invalidURL(_:)`` saying what is wrong (never
    /// echoing a password).
    public init(_ text: String) throws(PostgresStoreError) {
        guard let components = URLComponents(string: text), let scheme = components.scheme,
              ["postgres", "postgresql"].contains(scheme.lowercased())
        else { throw .invalidURL("it must start with postgres://") }
        guard let host = components.host, !host.isEmpty else { throw .invalidURL("no host") }
        let user = components.user.flatMap { $0.removingPercentEncoding } ?? ""
        guard !user.isEmpty else { throw .invalidURL("no user: write postgres://USER@\(host)/…") }
        let database = String(components.path.drop { $0 == "/" }).removingPercentEncoding ?? ""
        guard !database.isEmpty, !database.contains("/") else { throw .invalidURL("no database: end it with /DATABASE") }
        var tls = TLSMode.prefer
        var rootCertificate: String?
        for item in components.queryItems ?? [] {
            switch item.name {
            case "sslmode":
                guard let mode = item.value.flatMap(TLSMode.init(rawValue:)) else {
                    throw .invalidURL("sslmode must be one of \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                tls = mode
            case "sslrootcert":
                rootCertificate = item.value
            default:
                throw .invalidURL("unknown parameter '\(item.name)' (known: sslmode, sslrootcert)")
            }
        }
        if rootCertificate != nil, tls != .verifyFull { throw .invalidURL("sslrootcert needs sslmode=verify-full") }
        self.user = user
        password = components.password.flatMap { $0.removingPercentEncoding }
        self.host = host
        port = components.port ?? 5432
        self.database = database
        self.tls = tls
        self.rootCertificate = rootCertificate
    }

    /// The URL as it may be shown: `postgres://user@host:port/database`, a password as `‹redacted›`.
    public var redacted: String {
        "postgres://\(user)\(password == nil ? "" : ":‹redacted›")@\(host):\(port)/\(database)"
    }
}
