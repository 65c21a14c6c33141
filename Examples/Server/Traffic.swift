import CoreMetrics
import Logging
import ServiceLifecycle
import TaskFlow
import TaskFlowStore
import Tracing

/// What keeps the example busy until a graceful shutdown: a write flow every 200 ms (every fifth
/// one durable; once a minute, from the fifth second on, a rebuild of 15 s, longer than the
/// default grace) and a stored job every 600 ms. The group's last service: the first to stop.
struct Traffic: Service {
    let manager: TaskFlowManager<Ledger>
    let flows: DurableFlows<Ledger>
    let store: JobStore
    let grace: Duration
    let logger: Logger
    private let submitted = Counter(label: "server_example.flows_submitted")

    init(manager: TaskFlowManager<Ledger>, flows: DurableFlows<Ledger>, store: JobStore, grace: Duration, logger: Logger) {
        (self.manager, self.flows, self.store, self.grace, self.logger) = (manager, flows, store, grace, logger)
    }

    func run() async throws {
        var batch = 0
        while !Task.isShuttingDownGracefully, !Task.isCancelled {
            batch += 1
            submitFlow(batch)
            if batch % 3 == 0 {
                do {
                    // The stored job's run links to this span, whichever worker runs it.
                    _ = try await withSpan("Submit report \(batch)") { _ in try await store.submit(Report(number: batch)) }
                } catch {
                    logger.error("submitting report \(batch): \(error)")
                }
            }
            try? await Task.sleep(for: .milliseconds(200))
        }
        logger.notice("shutting down: no new flows or jobs; live flows have \(grace) to finish, then roll back")
    }

    private func submitFlow(_ batch: Int) {
        submitted.increment()
        if batch % 300 == 25 {
            manager.execute(title: "Rebuild index \(batch)") { flow in try await Self.rebuild(flow) }
        } else if batch % 5 == 0 {
            flows.execute(title: "Post batch \(batch) (durable)") { flow in
                try await flow.task(title: "Reserve slot", revert: ReleaseSlot(batch: batch)) { _ in
                    try await Task.sleep(for: .milliseconds(40))
                }
                try await Self.post(flow)
            }
        } else {
            manager.execute(title: "Post batch \(batch)") { flow in try await Self.post(flow) }
        }
    }

    /// Validate, count, persist: a short write flow of three steps.
    private static func post(_ flow: FlowContext<Ledger>) async throws {
        try await flow.task(title: "Validate") { _ in try await Task.sleep(for: .milliseconds(30)) }
        try await flow.update(title: "Count") { $0.batches += 1 }
        try await flow.task(title: "Persist", apply: { _ in try await Task.sleep(for: .milliseconds(50)) }, revert: { _, _ in })
    }

    /// Fifteen seconds of work that stops early when its flow is cancelled: what a shutdown's grace
    /// does not wait for, rolled back.
    private static func rebuild(_ flow: FlowContext<Ledger>) async throws {
        try await flow.update(title: "Mark index stale") { $0.batches += 0 }
        try await flow.task(title: "Rebuild") { task in
            for tick in 1...150 {
                if task.isCancelled { throw CancellationError() }
                task.progress(Double(tick) / 150)
                try await Task.sleep(for: .milliseconds(100))
            }
        }
    }
}
