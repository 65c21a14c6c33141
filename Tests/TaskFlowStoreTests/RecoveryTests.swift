import TaskFlowTestSupport
import Foundation
import GRDB
@testable import TaskFlowStore
import Testing

/// Jobs outlive the store that holds them, and jobs a dead worker held come back (at least once).
@Suite("Persistence and recovery")
struct RecoveryTests {
    @Test("jobs submitted, parked and failed are all there after reopening", arguments: StoreFactory.durable)
    func reopen(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        var ids: [StoredJobID] = []
        do {
            let store = try await place.open()
            let log = ChangeLog(store)
            store.register(Greeting.self, retry: .never) { greeting, _ in
                greeting.name == "offline" ? .retryWhenReady : .fail(Boom("poison"))
            }
            ids.append(try await store.submit(Greeting(name: "offline")))
            ids.append(try await store.submit(Greeting(name: "poison")))
            try await store.start(workers: 1)
            #expect(await log.waitUntil { $0.contains { $0.name == "parked" } && $0.contains { $0.name == "failed" } })
            await store.stop()
            ids.append(try await store.submit(Greeting(name: "queued")))
        }
        let store = try await place.open()
        let jobs = try await store.jobs()
        #expect(jobs.map(\.id) == ids)
        #expect(jobs.map(\.state) == [.parked, .failed, .pending])
        #expect(jobs[1].lastError == "Boom(poison)")

        let log = ChangeLog(store)
        let names = Recorder<String>()
        store.register(Greeting.self, retry: .never) { greeting, _ in
            names.record(greeting.name)
            return .success
        }
        try await store.start(workers: 1)
        store.conditionsChanged()
        #expect(await log.waitForEnds(2))
        #expect(Set(names.all) == ["offline", "queued"])
        await store.stop()
    }

    @Test("on start, jobs a dead process of this host left running are re-queued at once, as recoveries",
          arguments: StoreFactory.durable)
    func deadProcessRecovery(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open(lease: .seconds(3600))
        let id = try await store.submit(Greeting(name: "ana"))
        try await place.markClaimedByDeadWorker(id)

        let log = ChangeLog(store)
        let attempts = store.registerGreeting()
        try await store.start(workers: 1)
        #expect(await log.waitForEnds(1))
        #expect(log.events(of: id).map(\.name) == ["recovered", "started", "succeeded"])
        #expect(attempts.all.map(\.isRecovery) == [true])
        await store.stop()
    }

    @Test("a job whose lease ran out is claimable again; a live lease is respected", arguments: StoreFactory.durable)
    func leaseExpiry(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let store = try await place.open()
        let expired = try await store.submit(Greeting(name: "expired"))
        let held = try await store.submit(Greeting(name: "held"))
        let last = try await store.submit(Greeting(name: "last"))
        // Held by a worker on another host that we cannot see: one lease long gone, one current.
        try await place.markClaimed(expired, "elsewhere boot 1 a", -1)
        try await place.markClaimed(held, "elsewhere boot 1 b", 3600)

        let log = ChangeLog(store)
        let attempts = store.registerGreeting()
        try await store.start(workers: 2)
        #expect(await log.waitForEnds(2))
        #expect(log.events(of: expired).map(\.name) == ["recovered", "started", "succeeded"])
        #expect(Set(attempts.all.map(\.id)) == [expired, last])
        #expect(attempts.all.first { $0.id == expired }?.isRecovery == true)
        let remaining = try await store.jobs()
        #expect(remaining.map(\.id) == [held])
        #expect(remaining.first?.state == .running)
        #expect(remaining.first?.leaseOwner == "elsewhere boot 1 b")
        #expect(remaining.first?.leaseHolder == "elsewhere:1")
        await store.stop()
    }

    @Test("only a process of this host, this boot and this PID namespace can be proven dead")
    func deadOwnersAreProvenNotGuessed() throws {
        let this = LeaseOwner.current()
        let gone = try deadProcessID()
        func owner(host: String = this.host, boot: String = this.boot, pid: Int32) -> String {
            LeaseOwner(host: host, boot: boot, pid: pid, token: "t").encoded
        }
        let bootID = try #require(this.boot.split(separator: "/").first.map(String.init))
        #expect(this.boot.hasPrefix(bootID + "/pid:["), "the boot field carries the PID namespace")
        #expect(this.isCertainlyDead(owner(pid: gone)), "an exited process of ours")
        let zombie = try zombieProcess()
        defer { waitpid(zombie, nil, 0) }
        #expect(this.isCertainlyDead(owner(pid: zombie)), "a process that ended and was not reaped yet")
        #expect(!this.isCertainlyDead(owner(pid: getpid())), "this process")
        #expect(!this.isCertainlyDead(LeaseOwner(host: this.host, boot: this.boot, pid: getppid(), token: "t").encoded), "a live one")
        #expect(!this.isCertainlyDead(owner(boot: bootID + "/pid:[1]", pid: gone)),
                "a container sharing the host's name and kernel: its pids are not ours to look up")
        #expect(!this.isCertainlyDead(owner(boot: bootID, pid: gone)), "an owner from before namespaces were recorded")
        #expect(this.isCertainlyDead(owner(boot: "another-boot/pid:[1]", pid: getpid())), "a reboot ended every process")
        #expect(!this.isCertainlyDead(owner(host: "elsewhere", pid: gone)), "another host")
        #expect(!this.isCertainlyDead("not an owner"))
    }
}
