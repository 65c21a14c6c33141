import Foundation
import TaskFlowStore
import Testing
import TaskFlowTestSupport

/// idle → running → stopping → stopped, and the requests that steer single jobs.
@Suite("Lifecycle")
struct LifecycleTests {
    @Test("stop lets the running job finish, starts no other, and is final", arguments: StoreFactory.all)
    func stopWaitsForRunningJobs(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let gate = Gate()
        let ran = Recorder<String>()
        store.register(Greeting.self, retry: .never) { greeting, _ in
            ran.record(greeting.name)
            await gate.wait()
            return .success
        }
        let first = try await store.submit(Greeting(name: "first"))
        try await store.submit(contentsOf: [Greeting(name: "second"), Greeting(name: "third")])
        try await store.start(workers: 1)
        #expect(await log.waitUntil { $0.contains { $0.name == "started" } })

        let stopped = Flag()
        let stopping = Task {
            await store.stop()
            stopped.set()
        }
        // stop waits for the job in hand: give it every chance to return early.
        for _ in 0..<50 { await Task.yield() }
        #expect(!stopped.isSet)
        gate.open()
        await stopping.value
        // The log records the change events as its consumer task gets them: wait, not read.
        #expect(await log.waitUntil { events in
            events.filter { $0.jobID == first }.last == .succeeded(first, kind: Greeting.kind)
        })
        #expect(ran.all == ["first"])
        let left = try await store.jobs()
        #expect(left.map(\.state) == [.pending, .pending])
        await #expect(throws: JobStoreError.notIdle) { try await store.start(workers: 1) }
        await store.stop()  // stopping a stopped store is a no-op
    }

    @Test("start is allowed once", arguments: StoreFactory.all)
    func startTwice(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        try await store.start(workers: 1)
        await #expect(throws: JobStoreError.notIdle) { try await store.start(workers: 1) }
        await store.stop()
    }

    @Test("two starts at once: one runs the workers, the other is refused before it writes anything",
          arguments: StoreFactory.all)
    func startsAtOnce(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let starts = [Task { try await store.start(workers: 1) }, Task { try await store.start(workers: 2) }]
        var refusals: [JobStoreError?] = []
        for start in starts {
            if case .failure(let error) = await start.result { refusals.append(error as? JobStoreError) }
        }
        #expect(refusals == [.notIdle])
        #expect(try await store.workerProcesses().map(\.workers).count == 1)
        await store.stop()
        #expect(try await store.workerProcesses().isEmpty)
    }

    // The lifecycle is the store's, not the backend's; twenty PostgreSQL stores (a TLS connection
    // and a pool each) opened under ThreadSanitizer starved the suite's other requests.
    @Test("a stop racing a start leaves no worker running and no process listed", arguments: StoreFactory.local)
    func stopRacingStart(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        for _ in 0..<20 {
            let store = try await place.open()
            let start = Task { try await store.start(workers: 1) }
            await store.stop()
            if case .failure(let error) = await start.result {
                #expect(error as? JobStoreError == .notIdle, "only a stop that came first refuses the start")
            }
            await store.stop()
            #expect(try await store.workerProcesses().isEmpty)
            await #expect(throws: JobStoreError.notIdle) { try await store.start(workers: 1) }
        }
    }

    @Test("cancel removes a waiting job, refuses a running one", arguments: StoreFactory.all)
    func cancel(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let log = ChangeLog(store)
        let gate = Gate()
        let running = try await store.submit(Greeting(name: "running"))
        store.register(Greeting.self, retry: .never) { _, _ in
            await gate.wait()
            return .success
        }
        try await store.start(workers: 1)
        #expect(await log.waitUntil { $0.contains { $0.name == "started" } })
        let waiting = try await store.submit(Greeting(name: "waiting"))
        try await store.cancel(waiting)
        #expect(await log.waitUntil { $0.contains(.cancelled(waiting, kind: Greeting.kind)) })
        await #expect(throws: JobStoreError.jobRunning(running)) { try await store.cancel(running) }
        await #expect(throws: JobStoreError.noSuchJob(waiting)) { try await store.cancel(waiting) }
        gate.open()
        #expect(await log.waitForEnds(1))
        #expect(try await store.jobs().isEmpty)
        await store.stop()
    }

    @Test("every subscriber of changes gets every event, in the same order", arguments: StoreFactory.all)
    func severalSubscribers(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        let one = ChangeLog(store)
        let two = ChangeLog(store)
        store.register(Greeting.self, retry: .immediate(maxAttempts: 2)) { _, attempt in
            attempt.retries == 0 ? .retry(Boom()) : .success
        }
        try await store.submit(contentsOf: (0..<20).map { Greeting(name: "n\($0)") })
        try await store.start(workers: 2)
        #expect(await one.waitForEnds(20))
        #expect(await two.waitForEnds(20))
        await store.stop()
        #expect(one.events == two.events)
        #expect(one.events.count == 20 * 5)  // submitted, started, retryScheduled, started, succeeded
    }
}
