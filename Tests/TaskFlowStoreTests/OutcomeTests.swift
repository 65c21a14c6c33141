import Foundation
import TaskFlow
import TaskFlowStore
import Testing
import TaskFlowTestSupport

/// Each executor answer, the retry count it leaves, and the events it publishes (Forge's rules).
@Suite("Outcomes")
struct OutcomeTests {
    @Test("success deletes the job and reports it done", arguments: StoreFactory.all)
    func success(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let attempts = store.registerGreeting()
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 2)
        #expect(await log.waitForEnds(1))
        #expect(log.events(of: id).map(\.name) == ["submitted", "started", "succeeded"])
        #expect(attempts.all.map(\.retries) == [0])
        #expect(attempts.all.map(\.isRecovery) == [false])
        #expect(try await store.jobs().isEmpty)
        await store.stop()
    }

    @Test("retryWhenReady parks with the count unchanged until conditionsChanged", arguments: StoreFactory.all)
    func conditionalRetry(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let network = Flag(false)
        let attempts = store.registerGreeting(retry: .immediate(maxAttempts: 2)) { _ in
            network.isSet ? .success : .retryWhenReady
        }
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 2)
        #expect(await log.waitUntil { $0.contains(.parked(id, kind: Greeting.kind)) })
        let parked = try await store.jobs()
        #expect(parked.map(\.state) == [.parked])
        #expect(parked.map(\.retries) == [0])
        // Parked jobs wait for conditions: with a 60 s re-check, no worker runs it again.
        #expect(attempts.all.count == 1)

        network.set()
        store.conditionsChanged()
        #expect(await log.waitForEnds(1))
        #expect(log.events(of: id).map(\.name) == ["submitted", "started", "parked", "requeued", "started", "succeeded"])
        // Conditional retries never count, even beyond the policy's two runs.
        #expect(attempts.all.map(\.retries) == [0, 0])
        await store.stop()
    }

    @Test("a parked job is tried again after the re-check interval", arguments: StoreFactory.all)
    func recheck(factory: StoreFactory) async throws {
        let clock = TestClock()
        let time = StoreClock(following: clock)
        let store = try await factory.makePlace().open(recheck: .milliseconds(20), clock: time)
        let log = ChangeLog(store)
        store.registerMarker()
        let attempts = Recorder<StoredJobAttempt>()
        store.register(Greeting.self, retry: .never) { _, attempt in
            attempts.record(attempt)
            return attempts.all.count < 3 ? .retryWhenReady : .success
        }
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 1)
        for parked in 1...2 {
            // The job was parked with the clock where it stands: it is due 20 ms from now.
            #expect(await log.waitUntil { $0.filter { $0 == .parked(id, kind: Greeting.kind) }.count == parked })
            let due = clock.now + .milliseconds(20)
            #expect(isSameTime(try await store.job(id)?.dueAt, time.date(at: due)), "parked until 20 ms after its run")
            try await expectRunsWhenDue(id, at: due, store: store, log: log, clock: clock)
        }
        #expect(await log.waitUntil { $0.contains(.succeeded(id, kind: Greeting.kind)) })
        #expect(attempts.all.map(\.retries) == [0, 0, 0])
        await store.stop()
    }

    @Test("retry counts each run, waits the policy's delay, and is never reported done", arguments: StoreFactory.all)
    func countedRetry(factory: StoreFactory) async throws {
        let clock = TestClock()
        let time = StoreClock(following: clock)
        let store = try await factory.makePlace().open(clock: time)
        let log = ChangeLog(store)
        store.registerMarker()
        let attempts = store.registerGreeting(retry: .constant(maxAttempts: 5, delay: .milliseconds(30))) { attempt in
            attempt.retries < 2 ? .retry(Boom("500")) : .success
        }
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 2)
        for retry in 1...2 {
            // The run failed with the clock where it stands: the next is due 30 ms from now.
            #expect(await log.waitUntil { $0.filter { $0.name == "retryScheduled" }.count == retry })
            let due = clock.now + .milliseconds(30)
            #expect(isSameTime(try await store.job(id)?.dueAt, time.date(at: due)), "due the policy's delay after the failure")
            try await expectRunsWhenDue(id, at: due, store: store, log: log, clock: clock)
        }
        #expect(await log.waitUntil { $0.contains(.succeeded(id, kind: Greeting.kind)) })
        #expect(attempts.all.map(\.retries) == [0, 1, 2])
        let names = log.events(of: id).map(\.name)
        #expect(names == ["submitted", "started", "retryScheduled", "started", "retryScheduled", "started", "succeeded"])
        let retries = log.events(of: id).compactMap { event -> Int? in
            if case .retryScheduled(_, _, let retries, _, let reason) = event, reason == "Boom(500)" { return retries }
            return nil
        }
        #expect(retries == [1, 2])
        await store.stop()
    }

    @Test("a scheduled retry is listed with its count and time", arguments: StoreFactory.all)
    func scheduledRetryIsListed(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        store.register(Greeting.self, retry: .constant(maxAttempts: 3, delay: .seconds(3600))) { _, _ in .retry(Boom()) }
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 1)
        #expect(await log.waitUntil { $0.contains { $0.name == "retryScheduled" } })
        let job = try #require(try await store.jobs().first)
        #expect(job.id == id)
        #expect(job.state == .scheduled)
        #expect(job.retries == 1)
        #expect(job.lastError == "Boom(boom)")
        let due = try #require(job.dueAt)
        #expect(due.timeIntervalSinceNow > 3500)
        await store.stop()
    }

    @Test("an exhausted policy fails the job into the failed list, which can retry and purge", arguments: StoreFactory.all)
    func exhaustedPolicy(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let healthy = Flag(false)
        let attempts = store.registerGreeting(retry: .immediate(maxAttempts: 3)) { _ in
            healthy.isSet ? .success : .retry(Boom("500"))
        }
        let id = try await store.submit(Greeting(name: "ana"))
        try await store.start(workers: 2)
        #expect(await log.waitForEnds(1))
        #expect(attempts.all.map(\.retries) == [0, 1, 2])
        #expect(log.events(of: id).filter(\.isEnd).map(\.name) == ["failed"])
        let failed = try await store.failedJobs()
        #expect(failed.map(\.id) == [id])
        #expect(failed.first?.retries == 2)
        #expect(failed.first?.lastError == "gave up after 3 runs: Boom(500)")

        healthy.set()
        try await store.retryFailed(id)
        #expect(await log.waitForEnds(2))
        #expect(attempts.all.map(\.retries) == [0, 1, 2, 0])  // a retry from the failed list starts afresh
        #expect(try await store.jobs().isEmpty)
        await #expect(throws: JobStoreError.noSuchJob(id)) { try await store.retryFailed(id) }
        await store.stop()
    }

    @Test("fail removes the job at once with its reason; purge empties the failed list", arguments: StoreFactory.all)
    func nonRetriableFailure(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let runs = Recorder<Int>()
        store.register(Greeting.self, retry: .immediate(maxAttempts: 5)) { _, attempt in
            runs.record(attempt.retries)
            return .fail(Boom("poison"))
        }
        let id = try await store.submit(Greeting(name: "poison"))
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(1))
        #expect(runs.all == [0])
        #expect(log.events(of: id).last == .failed(id, kind: Greeting.kind, reason: "Boom(poison)"))
        #expect(try await store.jobs().map(\.state) == [.failed])
        #expect(try await store.purgeFailed() == 1)
        #expect(try await store.jobs().isEmpty)
        // The log records the change events as its consumer task gets them: wait, not read.
        #expect(await log.waitUntil { $0.last == .purged(count: 1) })
        await store.stop()
    }

    @Test("an executor that throws retries as counted; errors the policy does not retry fail", arguments: StoreFactory.all)
    func thrownErrors(factory: StoreFactory) async throws {
        struct Transient: Error {}
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let runs = Recorder<String>()
        store.register(Greeting.self, retry: RetryPolicy.immediate(maxAttempts: 3).retrying(if: { $0 is Transient })) {
            greeting, _ in
            runs.record(greeting.name)
            if greeting.name == "transient" { throw Transient() }
            throw Boom("fatal")
        }
        let transient = try await store.submit(Greeting(name: "transient"))
        let fatal = try await store.submit(Greeting(name: "fatal"))
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(2))
        #expect(runs.all.filter { $0 == "transient" }.count == 3)
        #expect(runs.all.filter { $0 == "fatal" }.count == 1)
        let reasons = Dictionary(uniqueKeysWithValues: try await store.failedJobs().map { ($0.id, $0.lastError) })
        #expect(reasons[transient] == "gave up after 3 runs: Transient()")
        #expect(reasons[fatal] == "not retried: Boom(fatal)")
        await store.stop()
    }

    @Test("submit(contentsOf:) persists many, in order, before it returns", arguments: StoreFactory.all)
    func batchSubmit(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let ids = try await store.submit(contentsOf: (0..<100).map { Greeting(name: "n\($0)") })
        #expect(ids.count == 100)
        #expect(ids == ids.sorted())
        let jobs = try await store.jobs()
        #expect(jobs.map(\.id) == ids)
        #expect(jobs.allSatisfy { $0.state == .pending && $0.retries == 0 && $0.kind == Greeting.kind })
        let decoded = try jobs.map { try JSONDecoder().decode(Greeting.self, from: $0.payload) }
        #expect(decoded == (0..<100).map { Greeting(name: "n\($0)") })
    }
}
