import Foundation
import TaskFlowSupport

/// The workers of a running store and the task that beats its heart (renewing their leases).
///
/// Shutting down sets the stop flag and rings the doorbell: each worker finishes the job in
/// hand, commits, hands its unstarted claims back, and returns; only then do the leases stop
/// being renewed, so no job a worker still holds can be taken over by another process; last,
/// the process leaves the store's list of worker processes.
final class WorkerPool: Sendable {
    private let environment: WorkerEnvironment
    private let stopRequested = StopFlag()
    private let workers: [Task<Void, Never>]
    private let renewer: Task<Void, Never>
    /// Rings the doorbell when another process made jobs runnable, where the backend can tell.
    private let watcher: Task<Void, Never>?

    /// Raised once by `shutdown`, read by every worker: a class, so that the pool and its workers
    /// share one (a lock cannot be copied).
    private final class StopFlag: Sendable {
        private let raised = Protected(false)
        var isRaised: Bool { raised.withLock { $0 } }
        func raise() { raised.withLock { $0 = true } }
    }

    /// Starts `count` workers; the store recorded its first heartbeat at `startedAt` (the time
    /// on its clock, and the date it wrote).
    init(environment: WorkerEnvironment, workers count: Int, startedAt: (instant: ContinuousClock.Instant, date: Date)) {
        self.environment = environment
        let stopRequested = stopRequested
        let worker = Worker(environment: environment, isStopping: { stopRequested.isRaised })
        workers = (0..<count).map { _ in Task { await worker.run() } }
        renewer = Task { await Self.beat(environment, workers: count, startedAt: startedAt) }
        let doorbell = environment.doorbell
        watcher = environment.backend.watchForWork { doorbell.ring() }
    }

    /// Stops the workers as described above and waits for them.
    func shutdown() async {
        stopRequested.raise()
        environment.doorbell.ring()
        for worker in workers { await worker.value }
        watcher?.cancel()
        renewer.cancel()
        await renewer.value
        await watcher?.value
        do {
            try await environment.backend.leave(owner: environment.owner.encoded)
        } catch {
            // Listed as silent until a store on this host proves it gone, or it is forgotten.
            environment.events.emit([.storeError("leaving the list of worker processes: \(error)")])
        }
    }

    /// Every third of a lease, pushes the end of every lease this store's workers hold a full
    /// lease ahead, then records the process as alive; each in its own transaction, so that a
    /// failed record (a busy database, a deadlock between two processes forgetting the same
    /// dead one) never costs a renewal. A failure is reported and tried again at the next tick.
    ///
    /// The ticks are counted from the start, on the store's clock (a third of a lease after it,
    /// two thirds, …), not from whenever this task got to run or its last write ended: so they
    /// do not drift, and a test that advances its clock a third of a lease past the start gets
    /// its beat. A tick missed altogether (the process was stopped) is not made up for: the
    /// next one is a third of a lease after the late one.
    private static func beat(
        _ environment: WorkerEnvironment, workers: Int, startedAt: (instant: ContinuousClock.Instant, date: Date)
    ) async {
        let interval = environment.lease / 3
        var tick = startedAt.instant + interval
        while true {
            do {
                try await environment.clock.sleep(until: tick)
            } catch {
                return  // cancelled: the workers are done
            }
            let now = environment.clock.now
            tick = tick + interval > now ? tick + interval : now + interval
            guard await report("renewing leases", environment, { try await environment.renewLeases() }) else { return }
            guard await report("recording the heartbeat", environment, {
                try await environment.backend.recordHeartbeat(environment.heartbeat(workers: workers, startedAt: startedAt.date))
            }) else { return }
        }
    }

    /// Runs one of the beat's writes and reports its failure as a store error; false when the
    /// beat was cancelled. A cancelled write is the stop, not a fault: the beat is cancelled
    /// once every worker returned, so no lease is left to renew (each stop that cut a write
    /// short logged an error).
    private static func report(
        _ what: String, _ environment: WorkerEnvironment, _ write: () async throws -> Void
    ) async -> Bool {
        do {
            try await write()
        } catch where Task.isCancelled {
            return false
        } catch {
            environment.events.emit([.storeError("\(what): \(error)")])
        }
        return true
    }
}
