import Foundation
import Logging
import PostgresNIO
import TaskFlowStore

extension JobStore {
    /// Opens the job store in the PostgreSQL database at `url`
    /// (`postgres://user@host:port/database?sslmode=verify-full&sslrootcert=ca.pem`), creating
    /// its tables if they are missing: the same store as on SQLite, shared by every process on
    /// every host that opens the same database. The password comes from the URL, else
    /// `PGPASSWORD`, else `~/.pgpass` (`PGPASSFILE`), like `psql`.
    ///
    /// One connection is made first, so that a wrong password, an unreachable server or a failed
    /// TLS check throws ``PostgresStoreError`` at once, in one line; then a pool of up to
    /// `maxConnections` connections serves the store, and one more listens for new work.
    public static func postgres(
        url: String, lease: Duration = .seconds(30), options: JobStoreOptions = JobStoreOptions(),
        maxConnections: Int = 8
    ) async throws(PostgresStoreError) -> JobStore {
        let url = try PostgresURL(url)
        let password = PasswordSource.password(for: url)
        let logger = PostgresBackend.logger
        do {
            let tls = try connectionTLS(url)
            var configuration = PostgresConnection.Configuration(
                host: url.host, port: url.port, username: url.user, password: password, database: url.database, tls: tls)
            configuration.options.connectTimeout = TimeAmount(options.requestTimeout)
            let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            defer { Task { try? await connection.closeGracefully() } }
            try await PostgresSchema.migrate(connection, server: url.redacted, logger: logger)
        } catch {
            throw PostgresConnectionFailure.error(error, url: url)
        }
        let backend = PostgresBackend(
            configuration: url.clientConfiguration(maxConnections: maxConnections, connectTimeout: options.requestTimeout),
            server: url.redacted,
            deadline: options.requestTimeout, journalLogger: options.logger)
        return JobStore(backend: backend, name: url.redacted, lease: lease, options: options)
    }

}

extension PostgresURL {
    /// The pool the store's backend connects with for this URL (password from the URL,
    /// `PGPASSWORD` or `~/.pgpass`); `package` so that the benchmark's raw postgres-nio baseline
    /// connects exactly the same way.
    package func clientConfiguration(
        maxConnections: Int, connectTimeout: Duration = JobStoreOptions().requestTimeout
    ) -> PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: user, password: PasswordSource.password(for: self), database: database,
            tls: JobStore.clientTLS(self))
        configuration.options.maximumConnections = maxConnections
        configuration.options.minimumConnections = 0
        configuration.options.connectTimeout = connectTimeout
        return configuration
    }
}

extension JobStore {
    /// The TLS settings of `sslmode`: verify-full checks the chain (against `sslrootcert` or
    /// the system's roots) and the host name; require encrypts without checking, as libpq does.
    private static func tlsConfiguration(_ url: PostgresURL) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        if url.tls == .verifyFull {
            tls.certificateVerification = .fullVerification
            if let root = url.rootCertificate { tls.trustRoots = .file(root) }
        } else {
            tls.certificateVerification = .none
        }
        return tls
    }

    private static func connectionTLS(_ url: PostgresURL) throws -> PostgresConnection.Configuration.TLS {
        switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(try NIOSSLContext(configuration: tlsConfiguration(url)))
        case .require, .verifyFull: .require(try NIOSSLContext(configuration: tlsConfiguration(url)))
        }
    }

    fileprivate static func clientTLS(_ url: PostgresURL) -> PostgresClient.Configuration.TLS {
        switch url.tls {
        case .disable: .disable
        case .prefer: .prefer(tlsConfiguration(url))
        case .require, .verifyFull: .require(tlsConfiguration(url))
        }
    }
}
