import Foundation
import Testing
import TaskFlowStore
import TaskFlowTestSupport

/// What views of a large store read: a page of jobs picked by state and kind, in either order,
/// the count of the rest, and counts by state — each one indexed query on every backend.
@Suite struct ListingTests {
    /// A store holding, oldest first: parked, failed, pending (no executor), failed, pending,
    /// parked — and the ids of those six jobs.
    private func mixedStore(_ factory: StoreFactory) async throws -> (JobStore, [StoredJobID]) {
        let store = try await factory.makePlace().open()
        store.register(Greeting.self, retry: .never) { greeting, _ in
            greeting.name.hasPrefix("doomed") ? .fail(Boom(greeting.name)) : .retryWhenReady
        }
        let log = ChangeLog(store)
        var ids: [StoredJobID] = []
        for name in ["a", "doomed 1", nil, "doomed 2", nil, "b"] {
            if let name {
                ids.append(try await store.submit(Greeting(name: name)))
            } else {
                ids.append(try await store.submit(kind: "other", json: Data("{}".utf8)))
            }
        }
        try await store.start(workers: 1)
        #expect(await log.waitUntil { events in
            events.filter { if case .parked = $0 { true } else { $0.isEnd } }.count == 4
        })
        await store.stop()
        return (store, ids)
    }

    @Test("a page of the oldest or the newest jobs, the next page after it, and the count of the rest", arguments: StoreFactory.all)
    func pagesAndTheRest(factory: StoreFactory) async throws {
        let (store, ids) = try await mixedStore(factory)
        #expect(try await store.jobs().map(\.id) == ids)
        #expect(try await store.jobs(matching: StoredJobQuery(order: .newestFirst)).map(\.id) == ids.reversed())

        let first = try await store.jobs(matching: StoredJobQuery(limit: 2))
        #expect(first.map(\.id) == Array(ids[0..<2]))
        #expect(try await store.count(matching: StoredJobQuery(after: ids[1])) == 4)
        #expect(try await store.jobs(matching: StoredJobQuery(after: ids[1], limit: 2)).map(\.id) == Array(ids[2..<4]))
        #expect(try await store.jobs(matching: StoredJobQuery(after: ids[5], limit: 2)).isEmpty)

        let newest = StoredJobQuery(order: .newestFirst, after: ids[4], limit: 3)
        #expect(try await store.jobs(matching: newest).map(\.id) == [ids[3], ids[2], ids[1]])
        #expect(try await store.count(matching: newest) == 4, "the limit aside: 3, 2, 1 and 0 come after 4")
        #expect(try await store.count(matching: StoredJobQuery()) == 6)
    }

    @Test("states and kind pick the jobs listed and counted; the failed list is the failed state", arguments: StoreFactory.all)
    func filters(factory: StoreFactory) async throws {
        let (store, ids) = try await mixedStore(factory)
        let expected: [(StoredJobQuery, [StoredJobID])] = [
            (StoredJobQuery(states: [.failed]), [ids[1], ids[3]]),
            (StoredJobQuery(states: [.parked, .failed]), [ids[0], ids[1], ids[3], ids[5]]),
            (StoredJobQuery(states: [.running]), []),
            (StoredJobQuery(kind: "other"), [ids[2], ids[4]]),
            (StoredJobQuery(states: [.parked], kind: "greeting"), [ids[0], ids[5]]),
            (StoredJobQuery(states: [.pending], kind: "greeting"), []),
            (StoredJobQuery(kind: "nobody's"), []),
            (StoredJobQuery(states: [.failed], order: .newestFirst, after: ids[3]), [ids[1]]),
            (StoredJobQuery(states: [.parked, .pending], after: ids[2]), [ids[4], ids[5]]),
        ]
        for (query, jobs) in expected {
            #expect(try await store.jobs(matching: query).map(\.id) == jobs, "\(query)")
            #expect(try await store.count(matching: query) == jobs.count, "\(query)")
        }
        #expect(try await store.failedJobs().map(\.id) == [ids[1], ids[3]])
        #expect(try await store.failedJobs().map(\.lastError) == ["Boom(doomed 1)", "Boom(doomed 2)"])
        #expect(try await store.jobCounts() == [.parked: 2, .failed: 2, .pending: 2])
    }

    @Test("a limit of zero or less lists nothing, no limit lists everything", arguments: StoreFactory.all)
    func limits(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let ids = try await store.submit(contentsOf: ["a", "b", "c"].map(Greeting.init))
        #expect(try await store.jobs(matching: StoredJobQuery(limit: 0)).isEmpty)
        #expect(try await store.jobs(matching: StoredJobQuery(limit: -5)).isEmpty)
        #expect(try await store.jobs(matching: StoredJobQuery(limit: 3)).map(\.id) == ids)
        #expect(try await store.jobs(matching: StoredJobQuery(limit: nil)).map(\.id) == ids)
        #expect(try await store.count(matching: StoredJobQuery(limit: 1)) == 3, "counting ignores the limit")
    }

    @Test("a listing without payloads never reads one, however large and whatever its bytes", arguments: StoreFactory.all)
    func withoutPayloads(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        // 8 MB that are neither UTF-8 nor JSON.
        let huge = Data((0..<8_000_000).map { UInt8(truncatingIfNeeded: 0xC0 &+ $0 % 64) })
        let id = try await store.submit(kind: "blob", json: huge)
        try await store.submit(Greeting(name: "small"))

        let listed = try await store.jobs(matching: StoredJobQuery(includesPayloads: false))
        #expect(listed.map(\.kind) == ["blob", "greeting"])
        #expect(listed.map(\.payload) == [Data(), Data()], "no payload was read")
        #expect(listed.map(\.state) == [.pending, .pending])
        #expect(try await store.jobs(matching: StoredJobQuery(limit: 1)).first?.payload == huge)
        #expect(try await store.job(id)?.payload == huge, "a job shown in full has its payload")
        #expect(try await store.job(StoredJobID(999)) == nil)
    }
}
