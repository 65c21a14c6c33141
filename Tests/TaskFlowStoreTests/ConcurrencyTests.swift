import Foundation
import TaskFlowSupport
import TaskFlowStore
import Testing
import TaskFlowTestSupport

/// Claims are atomic: with many workers, and with several stores on one file (as several
/// processes would), no job runs twice and none is left behind.
@Suite("Concurrency")
struct ConcurrencyTests {
    /// An hour: these tests are about claims, not recovery. With the default 30 s, a worker
    /// starved that long on a loaded machine (PostgreSQL under ThreadSanitizer) would see its
    /// job's lease run out and another worker claim it again, as a crash recovery should.
    static let lease = Duration.seconds(3600)

    /// Counts runs per job, and whether any job was ever run by two workers at the same time.
    final class RunLedger: Sendable {
        private struct State {
            var runs: [StoredJobID: Int] = [:]
            var inFlight: Set<StoredJobID> = []
            var overlaps = 0
            var byStore: [String: Int] = [:]
        }

        private let state = Protected(State())

        func begin(_ id: StoredJobID, store: String) {
            state.withLock { state in
                if !state.inFlight.insert(id).inserted { state.overlaps += 1 }
                state.runs[id, default: 0] += 1
                state.byStore[store, default: 0] += 1
            }
        }

        func end(_ id: StoredJobID) { state.withLock { _ = $0.inFlight.remove(id) } }

        var runs: [StoredJobID: Int] { state.withLock { $0.runs } }
        var overlaps: Int { state.withLock { $0.overlaps } }
        var total: Int { state.withLock { $0.runs.values.reduce(0, +) } }

        func register(on store: JobStore, name: String) {
            store.register(Greeting.self, retry: .never) { _, attempt in
                self.begin(attempt.id, store: name)
                await Task.yield()
                self.end(attempt.id)
                return .success
            }
        }
    }

    @Test("four workers run 3,000 jobs exactly once each", arguments: StoreFactory.all)
    func workersNeverShareAJob(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open(lease: Self.lease)
        let ledger = RunLedger()
        ledger.register(on: store, name: "one")
        let ids = try await store.submit(contentsOf: (0..<3_000).map { Greeting(name: "n\($0)") })
        try await store.start(workers: 4)
        // The cheap count first: listing thousands of jobs in a tight loop would slow the workers.
        #expect(await eventually(within: 240) { ledger.total >= ids.count })
        #expect(await eventually(within: 240) { await isDrained(store) })
        await store.stop()
        #expect(ledger.overlaps == 0)
        #expect(ledger.runs.count == ids.count)
        #expect(ledger.runs.values.allSatisfy { $0 == 1 })
    }

    @Test("two stores on one file share the queue without running a job twice", arguments: StoreFactory.durable)
    func twoStoresShareOneFile(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let first = try await place.open(lease: Self.lease)
        let second = try await place.open(lease: Self.lease)
        let ledger = RunLedger()
        ledger.register(on: first, name: "first")
        ledger.register(on: second, name: "second")
        try await first.start(workers: 2)
        try await second.start(workers: 2)
        // Both submit while both run, like the CLI submitting while the dashboard works.
        async let a = first.submit(contentsOf: (0..<1_500).map { Greeting(name: "a\($0)") })
        async let b = second.submit(contentsOf: (0..<1_500).map { Greeting(name: "b\($0)") })
        let ids = try await a + b
        // The cheap count first: listing thousands of jobs in a tight loop would slow the workers.
        // PostgreSQL under ThreadSanitizer takes minutes, not seconds.
        #expect(await eventually(within: 240) { ledger.total >= ids.count })
        #expect(await eventually(within: 240) { await isDrained(first) })
        await first.stop()
        await second.stop()
        #expect(ledger.overlaps == 0)
        #expect(Set(ledger.runs.keys) == Set(ids))
        #expect(ledger.runs.values.allSatisfy { $0 == 1 })
    }

    /// A retry committed by one worker is claimable at once, by any other: the claim must not
    /// announce `started` before the first worker announced the retry it answers.
    @Test("each job's events keep their order when its runs move between workers", arguments: StoreFactory.all)
    func eventOrderAcrossWorkers(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open(lease: Self.lease)
        let log = ChangeLog(store)
        _ = store.registerGreeting(retry: .immediate(maxAttempts: 3)) { attempt in
            attempt.retries < 2 ? .retry(Boom()) : .success
        }
        let ids = try await store.submit(contentsOf: (0..<200).map { Greeting(name: "g\($0)") })
        try await store.start(workers: 4)
        #expect(await log.waitForEnds(ids.count))
        await store.stop()
        let expected = ["submitted", "started", "retryScheduled", "started", "retryScheduled", "started", "succeeded"]
        let disordered = ids.filter { log.events(of: $0).map(\.name) != expected }
        #expect(disordered.isEmpty, "\(disordered.count) jobs, the first: \(disordered.first.map { log.events(of: $0).map(\.name) } ?? [])")
    }
}

extension ConcurrencyTests {
    /// Opening a store waits for the file's locks like any statement: the first look at a file
    /// (read-only, before anything writes) had no busy handler, and failed at once with
    /// "database is locked" when it met the last connection of a store going away, which
    /// checkpoints and truncates the log under an exclusive lock (seen under ThreadSanitizer).
    @Test("stores opened and let go side by side on one file all open")
    func opensBesideStoresGoingAway() async throws {
        let place = try await StoreFactory.sqliteFile.makePlace()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for side in 0..<3 {
                group.addTask {
                    for n in 0..<40 {
                        let store = try await place.open()
                        _ = try await store.submit(Greeting(name: "\(side).\(n)"))
                    }
                }
            }
            try await group.waitForAll()
        }
    }
}
