import ServiceLifecycle
import TaskFlow

extension JobStore {
    /// The store's workers as a swift-service-lifecycle `Service`, for a `ServiceGroup`:
    /// `run()` starts `workers` workers (``start(workers:)``) and keeps them running. On a
    /// graceful shutdown it stops them as ``stop()`` does — no new claims, running jobs finish
    /// and are committed, unstarted claims go back to the queue — and returns once they did.
    /// Cancelled instead (a second signal: "now"), it stops them the same way but waits at most
    /// `cancellationBound` (on the store's clock): jobs still running then are covered by their
    /// leases (another worker runs them again once a lease ends, as after a crash), so nothing
    /// is lost. Throws what ``start(workers:)`` throws.
    public func service(workers: Int, cancellationBound: Duration = .seconds(5)) -> JobStoreService {
        JobStoreService(store: self, workers: workers, cancellationBound: cancellationBound)
    }
}

/// A ``JobStore``'s workers as a swift-service-lifecycle `Service`: see
/// ``JobStore/service(workers:cancellationBound:)``.
public struct JobStoreService: Service {
    let store: JobStore
    /// How many workers it runs.
    public let workers: Int
    /// How long a cancelled service waits for running jobs before it returns.
    public let cancellationBound: Duration

    /// Runs the workers until a graceful shutdown or cancellation, then stops them (see the type).
    public func run() async throws {
        try await store.start(workers: workers)
        guard (try? await gracefulShutdown()) == nil else {
            await store.stop()
            return
        }
        // Cancelled: this task's sleeps and streams would end at once, so the first of the stop
        // and the bound is awaited in a task of its own; the stop goes on if the bound came first.
        let (store, clock, bound) = (store, store.environment.clock, cancellationBound)
        await Task.detached {
            let (ended, end) = AsyncStream<Void>.makeStream()
            Task { await store.stop(); end.yield() }
            let timer = Task { try? await clock.sleep(until: clock.now + bound); end.yield() }
            for await _ in ended { break }
            timer.cancel()
        }.value
    }
}
