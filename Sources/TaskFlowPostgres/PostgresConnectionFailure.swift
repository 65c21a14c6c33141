import Foundation
import NIOPosix
import PostgresNIO

/// Turns what postgres-nio throws while connecting into one line a user can act on. Its own
/// descriptions are deliberately vague (they must not leak query data); the code, the server's
/// SQLSTATE and message, and the underlying network or TLS error say what happened.
enum PostgresConnectionFailure {
    static func error(_ error: any Error, url: PostgresURL) -> PostgresStoreError {
        let server = url.redacted
        if let error = error as? PostgresStoreError { return error }
        guard let error = error as? PSQLError else { return .unreachable(server: server, reason: "\(error)") }
        if let info = error.serverInfo {
            let message = info[.message] ?? "an error"
            let state = info[.sqlState] ?? ""
            // 28P01 wrong password, 28000 no such role or not allowed by pg_hba.conf.
            if state.hasPrefix("28") { return .authenticationFailed(server: server, user: url.user, reason: message) }
            return .server(server: server, message: "\(message) (SQLSTATE \(state))")
        }
        switch error.code {
        case .sslUnsupported:
            return .tls(server: server, reason: "the server does not offer TLS, which sslmode=\(url.tls.rawValue) requires")
        default:
            break
        }
        if let underlying = error.underlying {
            if underlying is NIOSSLError || underlying is NIOSSLExtraError {
                return .tls(server: server, reason: "\(underlying)")
            }
            return .unreachable(server: server, reason: reason(underlying, host: url.host))
        }
        return .unreachable(server: server, reason: "\(error.code)")
    }

    /// What a failed connect says in a few words: "Connection refused", "unknown host db", or
    /// the error as NIO describes it.
    private static func reason(_ error: any Error, host: String) -> String {
        guard let failure = error as? NIOConnectionError else { return "\(error)" }
        if let last = failure.connectionErrors.last?.error as? IOError {
            return String(cString: strerror(last.errnoCode))
        }
        if failure.connectionErrors.isEmpty, failure.dnsAError != nil || failure.dnsAAAAError != nil {
            return "unknown host \(host)"
        }
        return "\(error)"
    }
}
