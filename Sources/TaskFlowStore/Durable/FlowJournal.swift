import Foundation
import TaskFlow
import TaskFlowSupport

/// What every durable flow of one ``DurableFlows`` shares: the journal's backend, the revert
/// handlers, who this process is in the journal (the store's lease owner), the clock, and the
/// heartbeat that proves this process alive to others while it has flows under way.
final class FlowJournal: Sendable {
    /// Whether the heartbeat runs, and for how many flows.
    private struct Beating {
        var active = 0
        var task: Task<Void, Never>?
    }

    let backend: any FlowJournalBackend
    let handlers = RevertHandlers()
    let owner: LeaseOwner
    let lease: Duration
    let clock: StoreClock
    /// How many finished flows the journal keeps: the manager's undo history.
    let keepingFinished: Int
    private let beating = Protected(Beating())

    init(backend: any FlowJournalBackend, owner: LeaseOwner, lease: Duration, clock: StoreClock, keepingFinished: Int) {
        self.backend = backend
        self.owner = owner
        self.lease = lease
        self.clock = clock
        self.keepingFinished = keepingFinished
    }

    deinit {
        beating.withLock { $0.task }?.cancel()
    }

    /// Whether the flows of `owner`, whose last heartbeat was at `heartbeat`, were left by a
    /// process that is gone: the store's proof for leases (same host: another boot, or a pid of
    /// our namespace that no longer runs), or a heartbeat older than a lease (any host).
    func isDead(owner encoded: String, heartbeat: Date) -> Bool {
        owner.isCertainlyDead(encoded) || heartbeat < clock.date - lease.timeInterval
    }

    /// Runs a journaled revert through its kind's handler, retrying as its policy says.
    func run(_ revert: JournalStep.Revert) async throws {
        let (policy, run) = try handlers.prepare(kind: revert.kind, payload: revert.payload)
        try await policy.run(on: clock.timer) { _ in try await run() }
    }

    // MARK: - Heartbeat

    /// A flow of this process began to need the heartbeat (its first journaled step, or a
    /// rollback of it).
    func flowActive() {
        beating.withLock { beating in
            beating.active += 1
            if beating.task == nil { beating.task = beat() }
        }
    }

    /// A flow no longer needs it (finished, or completed and kept for undo).
    func flowInactive() {
        beating.withLock { $0.active -= 1 }
    }

    /// Renews this process's flows' heartbeats every third of a lease while any is under way;
    /// ends with the journal.
    private func beat() -> Task<Void, Never> {
        let (clock, interval) = (clock, lease / 3)
        return Task { [weak self] in
            while (try? await clock.sleep(until: clock.now + interval)) != nil {
                guard let self else { return }
                guard beating.withLock({ $0.active > 0 }) else { continue }
                // A missed beat is made up by the next one; a lease's worth of them is the limit.
                try? await backend.heartbeat(owner: owner.encoded, now: clock.date)
            }
        }
    }
}
