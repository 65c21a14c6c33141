import Testing
import TaskFlow
import TaskFlowTestSupport

/// Dependencies between scheduled jobs: order, failure and cancellation passed down, other
/// queues, and long chains.
@Suite struct JobDependencyTests {
    func named(_ name: String, _ ran: Recorder<String>, fails: Bool = false) -> Job<String> {
        Job(title: name) { _ in
            ran.record(name)
            if fails { throw Boom(name) }
            return name
        }
    }

    @Test func aJobStartsOnlyAfterAllItsDependenciesSucceeded() async throws {
        let queue = JobQueue(title: "deps", maxConcurrent: 4)
        let ran = Recorder<String>()
        let gate = Gate()
        let a = queue.add(gatedJob("a", ran, gate: gate))
        let b = queue.add(named("b", ran))
        let c = queue.add(named("c", ran), after: [a, b])
        _ = try await b.value
        #expect(c.status == .waiting, "a still runs")
        gate.open()
        #expect(try await c.value == "c")
        #expect(ran.all.last == "c")
    }

    /// A type of the program's own may stand for a job by forwarding its handle's scheduled
    /// job: a dependency like the handle itself (it used to trap: only handles were accepted).
    @Test func aDependencyForwardingAHandleWaitsForThatJob() async throws {
        struct Upload: JobDependency {
            let handle: JobHandle<String>
            var scheduledJob: ScheduledJob { handle.scheduledJob }
        }
        let queue = JobQueue(title: "deps", maxConcurrent: 2)
        let ran = Recorder<String>()
        let gate = Gate()
        let upload = Upload(handle: queue.add(gatedJob("upload", ran, gate: gate)))
        let notify = queue.add(named("notify", ran), after: [upload])
        #expect(upload.title == "upload" && upload.id == upload.handle.id)
        #expect(notify.status == .waiting)
        gate.open()
        #expect(try await notify.value == "notify")
        #expect(ran.all == ["upload", "notify"])
    }

    @Test func aFailedDependencyFailsItsDependentsWithoutRunningThemNamingIt() async throws {
        let queue = JobQueue(title: "deps", maxConcurrent: 2)
        let ran = Recorder<String>()
        let errors = Recorder<String>()
        let a = queue.add(named("a", ran, fails: true))
        let b = queue.add(named("b", ran).onError { errors.record("\($0)") }, after: [a])
        let c = queue.add(named("c", ran), after: [b])
        await #expect(throws: Boom("a")) { try await a.value }
        await #expect(throws: JobError.dependencyFailed(job: "b", dependency: "a", cancelled: false)) { try await b.value }
        await #expect(throws: JobError.dependencyFailed(job: "c", dependency: "b", cancelled: false)) { try await c.value }
        #expect(ran.all == ["a"])
        #expect(errors.all == ["'b' did not run: its dependency 'a' failed"], "b's error handler ran once")
        #expect(b.status == .failed("'b' did not run: its dependency 'a' failed"))
    }

    @Test func aCancelledDependencyFailsItsDependents() async throws {
        let queue = JobQueue(title: "deps", maxConcurrent: 1)
        queue.pause()
        let ran = Recorder<String>()
        let a = queue.add(named("a", ran))
        let b = queue.add(named("b", ran), after: [a])
        a.cancel()
        await #expect(throws: JobError.dependencyFailed(job: "b", dependency: "a", cancelled: true)) { try await b.value }
        queue.resume()
        #expect(ran.all.isEmpty)
    }

    @Test func dependenciesThatAlreadyEndedCountAtOnce() async throws {
        let queue = JobQueue(title: "late", maxConcurrent: 2)
        let ran = Recorder<String>()
        let done = queue.add(named("done", ran))
        let failed = queue.add(named("failed", ran, fails: true))
        _ = try await done.value
        _ = try? await failed.value
        #expect(try await queue.add(named("after done", ran), after: [done]).value == "after done")
        await #expect(throws: JobError.dependencyFailed(job: "after failed", dependency: "failed", cancelled: false)) {
            try await queue.add(named("after failed", ran), after: [done, failed]).value
        }
    }

    @Test func aJobMayWaitForJobsOfOtherQueues() async throws {
        let disk = JobQueue(title: "disk")
        let net = JobQueue(title: "net")
        let ran = Recorder<String>()
        let gate = Gate()
        let read = disk.add(gatedJob("read", ran, gate: gate))
        let upload = net.add(named("upload", ran), after: [read])
        #expect(upload.status == .waiting)
        gate.open()
        #expect(try await upload.value == "upload")
        #expect(ran.all == ["read", "upload"])
    }

    @Test func aRandomGraphRunsEveryJobAfterItsDependencies() async throws {
        var random = SeededGenerator(seed: 3)
        let queue = JobQueue(title: "dag", maxConcurrent: 4)
        let order = Recorder<Int>()
        var handles: [JobHandle<Int>] = []
        var dependencies: [[Int]] = []
        for index in 0..<500 {
            let after = index == 0 ? [] : (0..<3).map { _ in Int.random(in: 0..<index, using: &random) }
            dependencies.append(after)
            handles.append(queue.add(Job(title: "\(index)") { _ in
                order.record(index)
                return index
            }, after: after.map { handles[$0] }))
        }
        for handle in handles { _ = try await handle.value }
        var position: [Int: Int] = [:]
        for (place, index) in order.all.enumerated() { position[index] = place }
        for (index, after) in dependencies.enumerated() {
            for dependency in after {
                #expect((position[dependency] ?? .max) < (position[index] ?? -1), "\(index) ran before \(dependency)")
            }
        }
    }

    /// A failure at the head of a long chain reaches its end through a work list: with
    /// recursion, this many levels would overflow a thread's stack.
    @Test func aFailureAtTheHeadOfALongChainFailsEveryJobWithoutRecursion() async throws {
        let queue = JobQueue(title: "chain", maxConcurrent: 1)
        queue.pause()
        let gate = Gate()
        let head = queue.add(Job<Int>(title: "head") { _ in
            await gate.wait()
            throw Boom("head")
        })
        var last: any JobDependency = head
        var handles: [JobHandle<Int>] = []
        for index in 0..<200_000 {
            let handle = queue.add(Job(title: "\(index)") { _ in index }, after: [last])
            handles.append(handle)
            last = handle
        }
        queue.resume()
        gate.open()
        await #expect(throws: JobError.dependencyFailed(job: "199999", dependency: "199998", cancelled: false)) {
            try await handles[handles.count - 1].value
        }
        #expect(handles.allSatisfy { $0.status.name == "failed" })
    }
}
