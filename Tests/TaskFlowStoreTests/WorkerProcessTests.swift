import Foundation
import TaskFlowStore
import Testing
import TaskFlowTestSupport

/// The store's list of worker processes (`workerProcesses()`): what the jobs view shows of every
/// process sharing a store — host, pid, workers, the jobs each holds, the last heartbeat.
@Suite("Worker processes")
struct WorkerProcessTests {
    @Test("a running store lists itself with the jobs its workers hold, and leaves the list when it stops",
          arguments: StoreFactory.all)
    func listsItself(factory: StoreFactory) async throws {
        let store = try await factory.makePlace().open()
        #expect(try await store.workerProcesses().isEmpty, "an idle store runs no workers")
        let log = ChangeLog(store)
        let gate = Gate()
        store.register(Greeting.self, retry: .never) { _, _ in
            await gate.wait()
            return .success
        }
        try await store.submit(contentsOf: [Greeting(name: "one"), Greeting(name: "two")])
        let before = Date()
        try await store.start(workers: 3)
        #expect(await log.waitUntil { $0.filter { $0.name == "started" }.count == 2 })

        let processes = try await store.workerProcesses()
        let this = try #require(processes.first)
        #expect(processes.count == 1)
        #expect(this.isThisStore)
        #expect(this.pid == getpid())
        #expect(this.host == ProcessInfo.processInfo.hostName.replacingOccurrences(of: " ", with: "_"))
        #expect(this.workers == 3)
        #expect(this.runningJobs == 2)
        #expect(this.lease == .seconds(30))
        #expect(this.lastHeartbeat >= before.addingTimeInterval(-0.001) && this.lastHeartbeat <= Date())
        #expect(!this.isSilent(at: Date()))
        #expect(this.isSilent(at: this.lastHeartbeat.addingTimeInterval(31)))
        let jobs = try await store.jobs()
        #expect(Set(jobs.compactMap(\.leaseOwner)) == [this.owner], "the jobs it holds carry its owner")
        #expect(Set(jobs.compactMap(\.leaseHolder)) == ["\(this.host):\(getpid())"])

        gate.open()
        #expect(await log.waitForEnds(2))
        #expect(try await store.workerProcesses().map(\.runningJobs) == [0])
        await store.stop()
        #expect(try await store.workerProcesses().isEmpty)
    }

    @Test("every third of the lease, the heartbeat moves on and a running job's lease is pushed a lease ahead",
          arguments: StoreFactory.all)
    func heartbeatMovesOn(factory: StoreFactory) async throws {
        let clock = TestClock()
        let time = StoreClock(following: clock)
        let store = try await factory.makePlace().open(lease: .seconds(30), clock: time)
        let log = ChangeLog(store)
        let gate = Gate()
        store.register(Greeting.self, retry: .never) { _, _ in
            await gate.wait()
            return .success
        }
        let id = try await store.submit(Greeting(name: "long"))
        let start = clock.now
        try await store.start(workers: 1)
        #expect(await log.waitUntil { $0.contains { $0.name == "started" } })
        #expect(isSameTime(try await store.workerProcesses().first?.lastHeartbeat, time.date(at: start)))
        #expect(isSameTime(try await store.job(id)?.dueAt, time.date(at: start + .seconds(30))), "claimed for a lease")

        for beat in 1...2 {
            let tick = start + .seconds(10 * beat)
            clock.advance(to: tick - .milliseconds(1))
            // Beats are counted from the start: the next one waits for exactly `tick`.
            #expect(await clock.waitForSleep(until: tick), "a millisecond early, the heartbeat waits on: \(clock.pendingSleeps)")
            #expect(isSameTime(try await store.workerProcesses().first?.lastHeartbeat, time.date(at: tick - .seconds(10))))
            clock.advance(to: tick)
            // The lease is renewed first, then the beat recorded: once the beat shows, both are in.
            #expect(await eventually {
                isSameTime((try? await store.workerProcesses())?.first?.lastHeartbeat, time.date(at: tick))
            }, "beat \(beat), a third of the lease after the one before")
            #expect(isSameTime(try await store.job(id)?.dueAt, time.date(at: tick + .seconds(30))), "the lease runs a lease from the beat")
        }
        gate.open()
        #expect(await log.waitForEnds(1))
        await store.stop()
    }

    @Test("stores sharing the data see each other; each knows which one it is", arguments: StoreFactory.durable)
    func sharedStores(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let one = try await place.open()
        let two = try await place.open()
        try await one.start(workers: 1)
        try await two.start(workers: 2)
        let seenByOne = try await one.workerProcesses()
        let seenByTwo = try await two.workerProcesses()
        #expect(seenByOne.map(\.owner) == seenByTwo.map(\.owner))
        #expect(Set(seenByOne.map(\.workers)) == [1, 2])
        #expect(seenByOne.first { $0.isThisStore }?.workers == 1)
        #expect(seenByTwo.first { $0.isThisStore }?.workers == 2)
        #expect(seenByOne.filter(\.isThisStore).count == 1 && seenByTwo.filter(\.isThisStore).count == 1)
        await one.stop()
        #expect(try await two.workerProcesses().map(\.workers) == [2])
        await two.stop()
    }

    @Test("a process killed with -9 stays listed, silent once its lease passed, until a store on its host starts",
          arguments: StoreFactory.durable)
    func killedProcess(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let address = try #require(place.address)
        let runs = try temporaryDirectory().appendingPathComponent("runs.sqlite").path
        let observer = try await place.open()
        // Enough work that the probe is busy when it is killed, even when this task waits seconds
        // for a thread on a loaded machine while the probe runs (10,000 took it 5-10 s).
        try await observer.submit(contentsOf: (0..<40_000).map(ProbeJob.init))

        let probe = try await CrashProbe.start(store: address, runs: runs, workers: 2)
        let listed = try await observer.workerProcesses()
        #expect(listed.map(\.pid) == [probe.pid])
        #expect(listed.first?.workers == 2)
        #expect(listed.first?.isThisStore == false)
        let owner = try #require(listed.first?.owner)
        #expect(try await probe.kill() == SIGKILL)

        let afterKill = try #require(try await observer.workerProcesses().first)
        #expect(afterKill.pid == probe.pid, "nothing removes a killed process's entry but a proof it is gone")
        // Whatever the kill cut off (a claim in flight is rolled back), the probe holds one job
        // for an hour: only the proof that it is dead can bring that one back soon.
        let pending = try #require(try await observer.jobs().first { $0.state == .pending })
        try await place.markClaimed(pending.id, owner, 3600)
        let held = Set(try await observer.jobs().filter { $0.state == .running && $0.leaseOwner == owner }.map(\.id))
        #expect(held.contains(pending.id))

        let log = ChangeLog(observer)
        observer.register(ProbeJob.self, retry: .never) { _, _ in .success }
        try await observer.start(workers: 1)
        let afterStart = try await observer.workerProcesses()
        #expect(afterStart.map(\.pid) == [getpid()], "the dead probe is forgotten")
        #expect(afterStart.first?.isThisStore == true)
        #expect(await log.waitUntil { events in held.isSubset(of: Set(events.filter { $0.name == "recovered" }.compactMap(\.jobID))) },
                "its jobs are recovered at once, not after its lease")
        await observer.stop()
    }

    @Test("a silent process is forgotten after an hour, or three of its leases if longer", arguments: StoreFactory.durable)
    func silentProcessesAreForgotten(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        let hour = 3600.0
        try await place.recordProcess("elsewhere boot 1 short-lease-long-gone", 30, 2 * hour)
        try await place.recordProcess("elsewhere boot 2 long-lease", hour, 2 * hour)
        try await place.recordProcess("elsewhere boot 3 short-lease-recent", 30, 0.5 * hour)
        #expect(try await store.workerProcesses().count == 3, "listing forgets nothing")
        try await store.start(workers: 1)   // its first beat forgets
        let others = try await store.workerProcesses().filter { !$0.isThisStore }
        #expect(Set(others.map(\.owner)) == ["elsewhere boot 2 long-lease", "elsewhere boot 3 short-lease-recent"])
        #expect(others.allSatisfy { $0.isSilent(at: Date()) })
        await store.stop()
    }

    /// Enough to lose SQLite's race most times (4 runs in 5 failed before the fix).
    private static let openedTogether = 4

    // SQLite only: PostgreSQL migrates under an advisory lock, and the process tests start four
    // processes together on a new database; five more TLS connections at once here, under
    // ThreadSanitizer, were more than the loaded test server answered in time.
    @Test("four processes opening a store of the first schema together all open it, upgraded once", arguments: [StoreFactory.sqliteFile])
    func upgradeTogether(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let id = try await place.open().submit(Greeting(name: "from before"))
        try await place.downgradeToFirstSchema()
        let opened = try await withThrowingTaskGroup(of: [StoredJobID].self) { group in
            for _ in 0..<Self.openedTogether { group.addTask { try await place.open().jobs().map(\.id) } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(opened == Array(repeating: [id], count: Self.openedTogether))
    }

    @Test("a store of the first schema is upgraded in place when opened: its jobs kept, heartbeats recorded",
          arguments: StoreFactory.durable)
    func upgradeFromTheFirstSchema(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let id = try await place.open().submit(Greeting(name: "from before"))
        try await place.downgradeToFirstSchema()

        let store = try await place.open()
        #expect(try await store.jobs().map(\.id) == [id])
        let attempts = store.registerGreeting()
        let log = ChangeLog(store)
        try await store.start(workers: 1)
        #expect(try await store.workerProcesses().map(\.pid) == [getpid()])
        #expect(await log.waitForEnds(1))
        #expect(attempts.all.map(\.id) == [id])
        await store.stop()
    }
}
