import TaskFlow
import TaskFlowSupport

/// Sends the wake-up (`NOTIFY taskflow_jobs`) for submitted jobs after their insert committed,
/// outside its transaction, one at a time and at most one per ``spacing``: the submits that
/// commit while one is on its way, or within the spacing after it started, are covered by a
/// single next one, sent when the spacing is over. A submit after a quiet spell is rung at once.
///
/// Why spaced: a caller submitting in a loop made one `NOTIFY` per submit, as many statements
/// again as the inserts, and every `NOTIFY` goes to every listening connection (one per store
/// process). Spaced, they are at most 200 a second whatever the submit rate. The submits
/// themselves gained little here (one caller, four alternating runs: 2.48–2.82 against
/// 2.31–2.79 k jobs/s; eight callers no change): the server's cost of a `NOTIFY` outside the
/// insert's transaction is small. What it costs: a worker idle in another process hears of a
/// job up to one spacing later while submits keep coming (one idle in this process is woken by
/// the store itself).
///
/// Why not in the insert's own transaction, where it used to be: PostgreSQL serialises every
/// committing transaction that notifies on one lock, held through its commit, and appends to
/// its notification queue whether anyone listens or not. With pgbench on the job table here,
/// the insert without the notify ran 1.2× faster from one client and 1.6× from eight.
///
/// Nothing is lost by sending it after the commit: a worker it wakes finds the job (committed
/// before the ring), every commit is followed by a wake-up sent after it, and a wake-up that
/// never goes out (the process ended first, the server was unreachable) costs an idle worker at
/// most its poll interval (``TaskFlowStore/JobStoreOptions/pollInterval``).
final class WakeUpSender: Sendable {
    /// Whether a wake-up is on its way (or its spacing not over), and whether a commit came
    /// after it started.
    private enum State {
        /// Nothing to send, and the last wake-up's spacing is over: a ring sends at once.
        case idle
        /// One wake-up on its way or within its spacing; no commit since it started.
        case sending
        /// One on its way or within its spacing, and a commit after it started: another follows
        /// once the spacing is over.
        case sendingThenAgain
    }

    /// The default ``spacing``: a twentieth of the default poll interval (100 ms); a worker idle
    /// in another process hears of a job at most this much later than of a lone submit.
    static let defaultSpacing = Duration.milliseconds(5)

    private let state = Protected(State.idle)
    private let send: @Sendable () async -> Void
    /// The least time from one wake-up's start to the next one's.
    let spacing: Duration
    private let clock: any TimingClock

    /// A sender whose `send` delivers one wake-up (its failure is its own to swallow), at most
    /// one every `spacing` by `clock`.
    init(spacing: Duration = defaultSpacing, clock: any TimingClock = ContinuousClock(), send: @escaping @Sendable () async -> Void) {
        precondition(spacing >= .zero, "a wake-up's spacing must not be negative")
        self.spacing = spacing
        self.clock = clock
        self.send = send
    }

    /// A job was committed: a wake-up goes out after this call, at once or when the spacing of
    /// the one on its way is over. Never waits.
    func ring() {
        let starts = state.withLock { state in
            switch state {
            case .idle:
                state = .sending
                return true
            case .sending, .sendingThenAgain:
                state = .sendingThenAgain
                return false
            }
        }
        guard starts else { return }
        // Detached: the sender serves every submit after this one, so it takes neither this
        // caller's priority nor its task-locals (a trace's span, a logger's metadata).
        Task.detached { [self] in
            repeat {
                let started = clock.now
                await send()
                // Commits from now until the spacing is over share the next wake-up. The sleep
                // cannot be cancelled (nothing cancels this task); a clock that throws anyway
                // only shortens the spacing.
                try? await clock.sleep(until: started.advanced(by: spacing), tolerance: nil)
            } while sendsAgain()
        }
    }

    /// Whether no wake-up is on its way and the last one's spacing is over (for tests).
    var isIdle: Bool {
        state.withLock { state in
            if case .idle = state { return true }
            return false
        }
    }

    /// After a wake-up went out and its spacing is over: whether another must follow (a commit
    /// came meanwhile).
    private func sendsAgain() -> Bool {
        state.withLock { state in
            guard case .sendingThenAgain = state else {
                state = .idle
                return false
            }
            state = .sending
            return true
        }
    }
}
