import ServiceLifecycle

extension TaskFlowManager {
    /// The manager as a swift-service-lifecycle `Service`, for a `ServiceGroup`:
    ///
    /// ```swift
    /// let group = ServiceGroup(services: [store.service(workers: 4), manager.service(grace: .seconds(10))],
    ///                          gracefulShutdownSignals: [.sigterm], logger: logger)
    /// ```
    ///
    /// Its `run()` waits while the program runs. On a graceful shutdown the manager refuses
    /// every flow submitted from then on (``FlowError/shuttingDown``), lets the live flows finish
    /// for `grace` (on the manager's clock), then cancels those still live and waits for their
    /// rollbacks: `run()` returns once no flow is live, nothing left half-applied. Cancelled
    /// instead (a second signal: "now"), it cancels every live flow at once and still waits for
    /// the rollbacks, which are never cut short.
    public func service(grace: Duration) -> FlowManagerService {
        FlowManagerService(engine: engine, grace: grace)
    }
}

/// A ``TaskFlowManager`` as a swift-service-lifecycle `Service`: see
/// ``TaskFlowManager/service(grace:)``.
///
/// Its lifecycle: **running** (flows accepted) → graceful shutdown → **draining** (new flows
/// refused; live ones finish, for `grace` at most) → **cancelling** (the flows still live are
/// cancelled and roll back) → **stopped** (no flow live; `run()` returns). Cancellation skips
/// draining.
public struct FlowManagerService: Service {
    let engine: FlowEngine
    /// How long live flows may run on once a graceful shutdown began.
    public let grace: Duration

    /// Runs until a graceful shutdown or cancellation, then drains the manager (see the type).
    public func run() async throws {
        // Throws only when cancelled first: then there is no grace.
        let graceful = (try? await gracefulShutdown()) != nil
        engine.refuseNewFlows()
        if graceful { await drain() } else { engine.cancelAll() }
        // Not cancellable: a rollback is never cut short, and run() returns only after them.
        await engine.waitUntilIdle()
    }

    /// Lets the live flows run for ``grace`` on the manager's clock, then cancels those still
    /// live; a cancel of this task (a second signal) ends the grace at once.
    private func drain() async {
        let (engine, clock, grace) = (engine, engine.clock, grace)
        await withTaskGroup(of: Bool.self) { group in
            group.addTask { await engine.waitUntilIdle(); return true }
            group.addTask {
                try? await RetryPolicy.sleep(until: clock.now + grace, on: clock)
                return false
            }
            if await group.next() == false { engine.cancelAll() }
            group.cancelAll()
        }
    }
}
