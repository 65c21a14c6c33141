import DashboardKit
import Foundation
import Synchronization
import TaskFlow
import TaskFlowStore

/// `taskflow demo outbox`: an outbox of e-mails on a durable job store, shown in the jobs view.
/// Flows write e-mails (each queued e-mail is a step whose revert takes it back out of the
/// queue); two workers send them to a simulated mail server that answers 500 now and then
/// (counted retries with backoff), one address that does not exist (it fails for good), and a
/// network the user switches with `n` (while it is down, e-mails park with their retry count
/// unchanged, and run again when it comes back).
///
/// The store is durable (a file, or a PostgreSQL database): quit mid-run and start the demo
/// again, and the e-mails left are sent; other processes' workers on the same store help. A
/// quit lets the workers finish what they send; after a crash (`kill -9`), the e-mails a worker
/// had claimed are recovered and sent again (the first flow says how many).
struct OutboxDemo: FlowSource {
    let manager = TaskFlowManager()
    let store: JobStore
    let network = OutboxNetwork()
    /// Seconds per simulated unit of work (1 = natural pace).
    let pace: Double
    private let stopped = StopSwitch()

    /// Set once the user quits: no batch is written after it.
    private final class StopSwitch: Sendable {
        private let on = Atomic<Bool>(false)
        var isOn: Bool { on.load(ordering: .relaxed) }
        func turnOn() { on.store(true, ordering: .relaxed) }
    }

    static let addresses = ["ana", "ben", "chloé", "dmitri", "eve", "farah", "goran", "hana", "ivo", "jun"]

    /// The demo on the store at `path`: a file (created, with its folder, if needed) or a
    /// `postgres://` database (in a taskflow built with the Postgres trait).
    init(path: String, pace: Double) throws {
        store = try StoreOptions.open(at: path, access: .create, ifMissing: "", lease: .seconds(5))
        self.pace = pace
        registerSender()
    }

    var name: String { "Outbox" }

    func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }

    func snapshot() -> ManagerSnapshot { manager.snapshot() }

    var jobStore: (any JobStoreSource)? { OutboxStoreSource(jobs: store, network: network) }

    @MainActor
    func start() -> AsyncStream<FlowHandle> {
        let (handles, continuation) = AsyncStream.makeStream(of: FlowHandle.self)
        continuation.yield(FlowHandle(openOutbox()))
        let (stopped, pace) = (stopped, pace)
        Task { @MainActor in
            for batch in 1... {
                try? await Task.sleep(for: .seconds(3 * pace))
                guard !stopped.isOn, batch <= 12 else { break }
                continuation.yield(FlowHandle(writeBatch(batch)))
            }
            continuation.finish()
        }
        return handles
    }

    @MainActor
    func stopSubmitting() {
        stopped.turnOn()
    }

    /// The workers finish the e-mails they are sending and commit them, so a quit leaves none
    /// claimed (the next start would recover, and send again, any that a crash left).
    func shutDown() async {
        stopped.turnOn()
        await store.stop()
    }

    // MARK: - Flows

    /// Opens the store: recovers what an earlier run left, then starts the workers.
    private func openOutbox() -> TaskFlow<Void> {
        manager.execute(title: "Open outbox", access: .write) { [store] flow in
            let left = try await flow.task(title: "Read the outbox", apply: { _ in try await store.jobCounts() }, revert: nil)
            // Jobs still marked running belong to a run that ended mid-send: start recovers them.
            let recovered = left[.running, default: 0]
            let waiting = left.values.reduce(0, +) - left[.failed, default: 0] - recovered
            try await flow.task(title: "Recover \(recovered) mid-send, \(waiting) waiting; start 2 workers", apply: { _ in
                try await store.start(workers: 2)
            }, revert: nil)
        }
    }

    /// A flow that writes three e-mails: each is queued in its own step, and a cancel or a
    /// failure takes the ones it queued back out (unless a worker already sends them).
    private func writeBatch(_ batch: Int) -> TaskFlow<Void> {
        manager.execute(title: "Write batch \(batch)", access: .write) { [store, pace] flow in
            for index in 0..<3 {
                let number = (batch - 1) * 3 + index
                let to = batch == 2 && index == 1 ? "nobody@nowhere.example" : "\(Self.addresses[number % Self.addresses.count])@example.com"
                try await flow.task(title: "Queue e-mail to \(to)", apply: { _ in
                    try await Task.sleep(for: .seconds(0.4 * pace))
                    return try await store.submit(Email(to: to, subject: "Batch \(batch), note \(index + 1)", smtpPassword: "hunter2"))
                }, revert: { _, id in try? await store.cancel(id) })
            }
        }
    }

    // MARK: - The simulated mail server

    private func registerSender() {
        let (network, pace) = (network, pace)
        let policy = RetryPolicy.exponential(maxAttempts: 4, initial: .seconds(2 * pace), multiplier: 2, cap: .seconds(10 * pace))
        store.register(Email.self, retry: policy) { email, attempt in
            guard network.isUp else { return .retryWhenReady }
            try await Task.sleep(for: .seconds(0.8 * pace))
            if email.to.hasPrefix("nobody@") { return .fail(MailError.noSuchMailbox(email.to)) }
            // A busy server: about one send in three gets a 500, the same ones every run.
            if (attempt.id.rawValue &* 2_654_435_761 &+ Int64(attempt.retries)) % 3 == 0 { return .retry(MailError.serverError(500)) }
            return .success
        }
    }
}

/// The outbox's store in the jobs view, with the network as a switch the user flips with `n`.
struct OutboxStoreSource: SwitchedJobStoreSource {
    let jobs: JobStore
    let network: OutboxNetwork

    var name: String { jobs.name }
    func listing(limit: Int) async throws -> StoreListing { try await jobs.listing(limit: limit) }
    func retry(_ id: StoredJobRow.ID) async throws { try await jobs.retry(id) }
    func cancel(_ id: StoredJobRow.ID) async throws { try await jobs.cancel(id) }
    func conditionsChanged() { jobs.conditionsChanged() }

    /// The key that flips the network.
    static let networkKey: Character = "n"

    var switches: [StoreSwitch] { [StoreSwitch(key: Self.networkKey, name: "network", isOn: network.isUp, on: "up", off: "down")] }

    func flip(_ key: Character) {
        guard key == Self.networkKey else { return }
        // Back up: parked e-mails run again at once rather than at the next re-check.
        if network.toggle() { jobs.conditionsChanged() }
    }
}

extension OutboxStoreSource {
    func changeLog() -> AsyncStream<LogLine> { jobs.changeLog() }
}
