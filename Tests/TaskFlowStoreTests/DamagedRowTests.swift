import Foundation
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// A store's data is input: another program, a hand edit or a bad restore can leave any value in
/// any column. Readers list such a row as damaged, with the column and the value; workers never
/// run it, and never trap on it.
@Suite("Damaged rows")
struct DamagedRowTests {
    /// Rows of every kind of damage each backend can hold: SQLite takes any value in any
    /// column; PostgreSQL's typed columns still take a count of -1 or a time of 'infinity'.
    private static func damage(_ place: StorePlace, _ ids: [StoredJobID]) async throws -> [StoredJobID: String] {
        let (a, b, c) = (ids[0].rawValue, ids[1].rawValue, ids[2].rawValue)
        try await place.tamper(
            """
            UPDATE job SET retries = 'abc' WHERE id = \(a);
            UPDATE job SET submitted_at = 'yesterday', kind = x'fffe' WHERE id = \(b);
            UPDATE job SET state = 'zombie' WHERE id = \(c);
            """,
            """
            ALTER TABLE taskflow_job DROP CONSTRAINT taskflow_job_state_check;
            UPDATE taskflow_job SET retries = -1 WHERE id = \(a);
            UPDATE taskflow_job SET submitted_at = 'infinity' WHERE id = \(b);
            UPDATE taskflow_job SET state = 'zombie' WHERE id = \(c);
            """)
        let sqlite = place.address.map { !$0.hasPrefix("postgres") } ?? true
        return [
            ids[0]: sqlite ? "retries is 'abc', not a count from 0 to 2147483647"
                : "retries is -1, out of range: a count from 0 to 2147483647",
            ids[1]: sqlite ? "kind is a BLOB of 2 bytes (ff fe), not text" : "submitted_at is ",
            ids[2]: "state is 'zombie', not a known state",
        ]
    }

    @Test("odd stored values are listed as damaged, with the column and the value; never a crash", arguments: StoreFactory.durable)
    func listedAsDamaged(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        let ids = try await store.submit(contentsOf: ["a", "b", "c", "d"].map(Greeting.init))
        let reasons = try await Self.damage(place, ids)

        let jobs = try await store.jobs()
        #expect(jobs.map(\.id) == ids, "none skipped")
        for job in jobs.prefix(3) {
            #expect(job.state == .damaged, "\(job.id): never reinterpreted")
            let damage = try #require(job.damage)
            #expect(damage.hasPrefix(try #require(reasons[job.id])), "\(damage)")
            #expect(!damage.contains("\n"))
        }
        #expect(jobs[3].state == .pending && jobs[3].damage == nil)
        #expect(try await store.job(ids[2])?.state == .damaged)
        #expect(try await store.jobCounts()[.damaged] == 1, "the unknown state, counted as damaged, not as pending")
    }

    @Test("worker process rows out of range are listed as damaged", arguments: StoreFactory.durable)
    func workerRowsListedAsDamaged(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        try await place.recordProcess("elsewhere:1:big-pid", 30, 0)
        try await place.recordProcess("elsewhere:1:long-lease", 30, 0)
        try await place.tamper(
            """
            UPDATE worker SET pid = 1099511627776 WHERE owner = 'elsewhere:1:big-pid';
            UPDATE worker SET lease = 1e308 WHERE owner = 'elsewhere:1:long-lease';
            """,
            """
            UPDATE taskflow_worker SET pid = -1 WHERE owner = 'elsewhere:1:big-pid';
            UPDATE taskflow_worker SET lease_seconds = 1e308 WHERE owner = 'elsewhere:1:long-lease';
            """)
        let processes = try await store.workerProcesses().sorted { $0.owner < $1.owner }
        #expect(processes.map(\.owner) == ["elsewhere:1:big-pid", "elsewhere:1:long-lease"])
        #expect(processes[0].damage?.hasPrefix("pid is ") == true, "\(processes[0].damage ?? "nil")")
        #expect(processes[1].damage == "lease is 1e+308, out of range: a number of seconds from 0.0 to 253402300799.0")
    }

    @Test("a poison retry count fails its job with the reason; the workers go on", arguments: StoreFactory.durable)
    func poisonRetryCounts(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        let log = ChangeLog(store)
        _ = store.registerGreeting(retry: .immediate(maxAttempts: 3)) { _ in .retry(Boom()) }
        let ids = try await store.submit(contentsOf: ["negative", "huge", "fine"].map(Greeting.init))
        // PostgreSQL's INTEGER holds no more than Int32.max: a count that large is in range,
        // and one more run is over any policy.
        try await place.tamper(
            "UPDATE job SET retries = -1 WHERE id = \(ids[0]); UPDATE job SET retries = 9223372036854775807 WHERE id = \(ids[1])",
            "UPDATE taskflow_job SET retries = -1 WHERE id = \(ids[0]); UPDATE taskflow_job SET retries = 2147483647 WHERE id = \(ids[1])")
        try await store.start(workers: 2)
        #expect(await log.waitForEnds(3))
        await store.stop()

        func reason(_ id: StoredJobID) -> String? {
            log.events(of: id).compactMap { if case .failed(_, _, let reason) = $0 { reason } else { nil } }.first
        }
        #expect(reason(ids[0]) == "its stored row is damaged: retries is -1, out of range: a count from 0 to 2147483647")
        let huge = try #require(reason(ids[1]))
        #expect(huge.hasPrefix("its stored row is damaged: retries is 9223372036854775807") || huge.hasPrefix("gave up after 2147483648 runs"), "\(huge)")
        #expect(reason(ids[2]) == "gave up after 3 runs: Boom(boom)")
        #expect(log.events(of: ids[0]).filter { if case .started = $0 { true } else { false } }.isEmpty, "never run")
        // Retrying sets the count back to zero: the job is whole again and runs.
        try await store.retryFailed(ids[0])
        #expect(try await store.job(ids[0])?.state == .pending)
    }

    @Test("a claim token at its largest wraps: the job runs and the claims go on", arguments: StoreFactory.durable)
    func largestClaimToken(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        let log = ChangeLog(store)
        let attempts = store.registerGreeting()
        let ids = try await store.submit(contentsOf: ["worn", "next"].map(Greeting.init))
        // `claim + 1` overflowed here: PostgreSQL failed every claim transaction that took the row.
        try await place.tamper(
            "UPDATE job SET claim = 9223372036854775807 WHERE id = \(ids[0])",
            "UPDATE taskflow_job SET claim = 9223372036854775807 WHERE id = \(ids[0])")
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(2))
        await store.stop()
        #expect(attempts.all.count == 2)
        for id in ids {
            #expect(log.events(of: id).contains { if case .succeeded = $0 { true } else { false } }, "\(id) succeeded")
        }
    }
}
