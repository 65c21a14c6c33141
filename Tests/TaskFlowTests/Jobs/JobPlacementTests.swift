import Dispatch
import Foundation
import Testing
import TaskFlow
import TaskFlowTestSupport

/// Where job bodies run: `.main` on the main queue as the main actor, one at a time; blocking
/// queues on threads of their own, so that blocking calls leave the cooperative pool free.
@Suite struct JobPlacementTests {
    /// `value`, read from the main actor: traps when called anywhere else.
    static func onTheMainActor(_ value: Int) -> Int {
        MainActor.assumeIsolated { value }
    }

    /// Marks the main dispatch queue, which the main actor runs on. (Under `swift test` on Linux
    /// that queue is drained by a worker thread, so `Thread.isMainThread` would not tell.)
    static let mainQueueKey: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    static var isOnMainQueue: Bool { DispatchQueue.getSpecific(key: mainQueueKey) == true }

    @Test func mainQueueJobsRunOnTheMainActorOneAtATime() async throws {
        _ = Self.mainQueueKey
        #expect(!Self.isOnMainQueue, "the test itself runs elsewhere, so the check can fail")
        let inFlight = Registrar()
        let onMain = Recorder<Bool>()
        let handles = (0..<5).map { index in
            JobQueue.main.add(Job(title: "ui \(index)") { _ in
                inFlight.enter("read")
                defer { inFlight.leave("read") }
                onMain.record(Self.isOnMainQueue)
                try await Task.sleep(for: .milliseconds(2))   // the job stays on the main queue across awaits
                onMain.record(Self.isOnMainQueue)
                return Self.onTheMainActor(index)
            })
        }
        for (index, handle) in handles.enumerated() { #expect(try await handle.value == index) }
        #expect(onMain.all == Array(repeating: true, count: 10))
        #expect(inFlight.maxReaders == 1)
        #expect(JobQueue.main.maxConcurrent == 1)
    }

    /// Eight jobs block their threads until a task on the cooperative pool releases them. On the
    /// pool itself (two threads here) the releasing task could never run, and each job would
    /// give up after its timeout: the test proves the blocking queue leaves the pool free.
    @Test func blockingJobsLeaveTheCooperativePoolFree() async throws {
        let queue = JobQueue.blocking(title: "disk", threads: 8)
        let release = DispatchSemaphore(value: 0)
        let handles = (0..<8).map { index in
            queue.add(Job(title: "blocking \(index)") { _ in
                release.wait(timeout: .now() + 10) == .success
            })
        }
        #expect(await eventually { handles.allSatisfy { $0.status == .running } })
        let onPool = Task.detached { () -> Int in
            var steps = 0
            for _ in 0..<20 {
                await Task.yield()
                steps += 1
            }
            return steps
        }
        #expect(await onPool.value == 20, "the cooperative pool kept running while all eight jobs blocked")
        for _ in handles { release.signal() }
        for handle in handles { #expect(try await handle.value, "a job timed out: its release never ran") }
    }

    @Test func aGroupOnABlockingQueueRunsItsChildrenOnTheQueuesThreads() async throws {
        let queue = JobQueue.blocking(title: "cpu", threads: 4)
        let release = DispatchSemaphore(value: 0)
        let started = Recorder<Int>()
        let children = (0..<4).map { index in
            Job(title: "child \(index)") { _ in
                started.record(index)
                return release.wait(timeout: .now() + 10) == .success
            }
        }
        let group = queue.add(Job.group(title: "blocking group", children))
        #expect(await eventually { started.all.count == 4 }, "four blocked children at once: more than the pool has")
        for _ in children { release.signal() }
        #expect(try await group.value == [true, true, true, true])
    }
}
