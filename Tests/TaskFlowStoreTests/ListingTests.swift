import Foundation
import Testing
import TaskFlowStore
import TaskFlowTestSupport

/// What views of a large store read: a screenful of the oldest jobs, and counts of them all.
@Suite struct ListingTests {
    @Test("jobs(first:) gives the oldest jobs; jobCounts() counts every job by state", arguments: StoreFactory.all)
    func oldestFirstAndCounts(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        store.register(Greeting.self, retry: .never) { greeting, _ in
            greeting.name == "doomed" ? .fail(Boom("doomed")) : .success
        }
        let log = ChangeLog(store)
        let ids = try await store.submit(contentsOf: ["a", "b", "c", "d", "doomed"].map(Greeting.init))
        #expect(try await store.jobs(first: 2).map(\.id) == Array(ids.prefix(2)))
        #expect(try await store.jobs(first: 0).isEmpty)
        #expect(try await store.jobCounts() == [.pending: 5])
        #expect(try await store.job(ids[2])?.payload == Data(#"{"name":"c"}"#.utf8))
        #expect(try await store.job(StoredJobID(999)) == nil)
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(5))
        await store.stop()
        #expect(try await store.jobCounts() == [.failed: 1])
        #expect(try await store.jobs(first: 10).map(\.id) == [ids[4]])
    }
}
