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

    /// More jobs than the cooperative pool has threads (one per core), each blocking its thread
    /// until all of them have started. On the pool, the ones past its width could never start
    /// while the others block, and the test would time out;
    /// on the queue's own threads they all block together. No clock is involved, so a loaded
    /// machine makes the test slower, never wrong.
    static let moreThanThePoolHolds = ProcessInfo.processInfo.activeProcessorCount + 4

    @Test func blockingJobsLeaveTheCooperativePoolFree() async throws {
        let count = Self.moreThanThePoolHolds
        let queue = JobQueue.blocking(title: "disk", threads: count)
        let (entered, release) = (Recorder<Int>(), DispatchSemaphore(value: 0))
        let handles = (0..<count).map { index in
            queue.add(Job(title: "blocking \(index)") { _ in
                entered.record(index)
                // The timeout only keeps a broken queue from hanging the suite.
                return release.wait(timeout: .now() + 60) == .success
            })
        }
        #expect(await eventually { entered.all.count == count }, "all \(count) jobs blocked at once")
        for _ in handles { release.signal() }
        for handle in handles { #expect(try await handle.value, "a job timed out: its release never ran") }
    }

    @Test func aGroupOnABlockingQueueRunsItsChildrenOnTheQueuesThreads() async throws {
        let count = Self.moreThanThePoolHolds
        let queue = JobQueue.blocking(title: "cpu", threads: count)
        let (entered, release) = (Recorder<Int>(), DispatchSemaphore(value: 0))
        let children = (0..<count).map { index in
            Job(title: "child \(index)") { _ in
                entered.record(index)
                return release.wait(timeout: .now() + 60) == .success
            }
        }
        let group = queue.add(Job.group(title: "blocking group", children))
        #expect(await eventually { entered.all.count == count }, "\(count) blocked children at once: more than the pool has")
        for _ in children { release.signal() }
        #expect(try await group.value == Array(repeating: true, count: count))
    }
}
