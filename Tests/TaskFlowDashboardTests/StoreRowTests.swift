import Foundation
import GRDB
import Testing
import TaskFlowStore
import TaskFlowTestSupport
@testable import taskflow

/// The job store's jobs as the dashboard's jobs view lists them.
@Suite("Dashboard: job store rows")
struct StoreRowTests {
    @Test func theRowsShowNoPasswordFromTheLastErrorOrThePayload() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "taskflow-rows-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try JobStore(path: path)
        let log = StreamLog(store.changes)
        store.register(JobsCommandTests.Doomed.self, retry: .never) { _, _ in .fail(Boom("connect failed: postgres://ann:s3cret@db/app refused")) }
        try await store.submit(JobsCommandTests.Doomed(number: 1))
        try await store.start(workers: 1)
        #expect(await eventually { log.events.contains { if case .failed = $0 { true } else { false } } })
        await store.stop()
        try await store.submit(kind: "sync", json: Data(#"{"dsn":"postgres://ann:s3cret@db/app","note":"?pwd=pa55"}"#.utf8))

        let rows = try await store.listing(limit: 10).rows
        #expect(rows.map(\.lastError) == ["Boom(connect failed: postgres://ann:‹redacted›@db/app refused)", nil])
        #expect(rows.last?.payload == #"{"dsn":"postgres://ann:‹redacted›@db/app","note":"?pwd=‹redacted›"}"#)
    }

    @Test func aPayloadChangedUnderItsIdIsShownAsItIsNow() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "taskflow-rows-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = try JobStore(path: path)
        let id = try await store.submit(kind: "sync", json: Data(#"{"token":"t1","note":"first"}"#.utf8))
        let source = store
        #expect(try await source.listing(limit: 10).rows.map(\.payload) == [#"{"note":"first","token":"‹redacted›"}"#])
        #expect(try await source.listing(limit: 10).rows.map(\.payload) == [#"{"note":"first","token":"‹redacted›"}"#])
        let queue = try DatabaseQueue(path: path)
        try await queue.write { db in
            try db.execute(sql: "UPDATE job SET payload = ? WHERE id = ?", arguments: [Data(#"{"note":"second"}"#.utf8), id.rawValue])
        }
        try queue.close()
        #expect(try await source.listing(limit: 10).rows.map(\.payload) == [#"{"note":"second"}"#])
    }
}
