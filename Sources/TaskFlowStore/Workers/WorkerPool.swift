import Foundation
import NIOConcurrencyHelpers

/// The workers of a running store and the task that renews their leases.
///
/// Shutting down sets the stop flag and rings the doorbell: each worker finishes the job in
/// hand, commits, hands its unstarted claims back, and returns; only then do the leases stop
/// being renewed, so no job a worker still holds can be taken over by another process.
final class WorkerPool: Sendable {
    private let environment: WorkerEnvironment
    private let stopRequested = NIOLockedValueBox(false)
    private let workers: [Task<Void, Never>]
    private let renewer: Task<Void, Never>
    /// Rings the doorbell when another process made jobs runnable, where the backend can tell.
    private let watcher: Task<Void, Never>?

    init(environment: WorkerEnvironment, workers count: Int) {
        self.environment = environment
        let stopRequested = stopRequested
        let worker = Worker(environment: environment, isStopping: { stopRequested.withLockedValue { $0 } })
        workers = (0..<count).map { _ in Task { await worker.run() } }
        renewer = Task { await Self.renewLeases(environment) }
        let doorbell = environment.doorbell
        watcher = environment.backend.watchForWork { doorbell.ring() }
    }

    /// Stops the workers as described above and waits for them.
    func shutdown() async {
        stopRequested.withLockedValue { $0 = true }
        environment.doorbell.ring()
        for worker in workers { await worker.value }
        watcher?.cancel()
        renewer.cancel()
        await renewer.value
        await watcher?.value
    }

    /// Every third of a lease, pushes the end of every lease this store's workers hold a full lease ahead;
    /// a renewal that fails is reported and tried again at the next tick.
    private static func renewLeases(_ environment: WorkerEnvironment) async {
        while true {
            do {
                try await Task.sleep(for: environment.lease / 3)
            } catch {
                return  // cancelled: the workers are done
            }
            do {
                try await environment.backend.renewLeases(
                    owner: environment.owner.encoded, jobs: environment.held.all, until: .now + environment.lease.timeInterval)
            } catch {
                environment.events.emit([.storeError("renewing leases: \(error)")])
            }
        }
    }
}
