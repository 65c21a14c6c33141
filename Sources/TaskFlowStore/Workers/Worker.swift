import Foundation
import TaskFlow
import Tracing

/// One worker: claims a batch, runs each job's executor, commits the outcomes, and repeats until
/// its pool stops; sleeps on the store's doorbell when there is nothing to do.
///
/// Batches adapt: a worker claims one job at a time while jobs are slow (so several workers
/// share a few slow jobs) and doubles its batch, up to ``JobStoreOptions/maxClaimBatch``, while
/// each job's executor takes under a millisecond (so fast jobs cost few claim transactions). The
/// executors' time decides, not the commits': on a database across the network a commit alone
/// takes a millisecond, and counting it would keep batches at one job however fast the jobs. Outcomes of a
/// batch are committed together, each still as one change of its own row, and never held longer
/// than ``JobStoreOptions/maxCommitDelay``.
struct Worker: Sendable {
    let environment: WorkerEnvironment
    /// True once the pool stops: finish the job in hand, start no other.
    let isStopping: @Sendable () -> Bool

    /// Below this time per job, a batch grows.
    private static let fastJob: Duration = .milliseconds(1)

    func run() async {
        var batchLimit = 1
        while !isStopping() {
            let ticket = environment.doorbell.ticket()
            let claimedAt = environment.clock.now
            guard let batch = await claim(limit: batchLimit, at: claimedAt) else {
                await environment.doorbell.wait(after: ticket, until: environment.clock.now + environment.options.pollInterval)
                continue
            }
            guard !batch.jobs.isEmpty else {
                batchLimit = 1
                await environment.doorbell.wait(after: ticket, until: idleDeadline(nextDue: batch.nextDue))
                continue
            }
            let (ran, executing) = await runBatch(batch.jobs, claimedAt: claimedAt)
            let perJob = executing / max(ran, 1)
            batchLimit = perJob < Self.fastJob ? min(batchLimit * 2, environment.options.maxClaimBatch) : 1
        }
    }

    /// Claims up to `limit` jobs as due at `instant` (the attempts' ``StoredJobAttempt/claimedAt``,
    /// read once so that the two agree); nil (and an event) if the database failed.
    private func claim(limit: Int, at instant: ContinuousClock.Instant) async -> ClaimBatch? {
        let now = environment.clock.date(at: instant)
        do {
            let batch = try await environment.backend.claim(
                kinds: environment.registry.kinds, limit: limit, owner: environment.owner.encoded, now: now,
                leaseUntil: now + environment.lease.timeInterval)
            environment.publish(batch.recovered.map { .recovered($0.id, kind: $0.kind) })
            environment.publish(batch.rejected.map { .failed($0.id, kind: $0.kind, reason: $0.failure) })
            await environment.held.hold(batch.jobs)
            return batch
        } catch {
            environment.events.emit([.storeError("claiming jobs: \(error)")])
            return nil
        }
    }

    /// Sleep until the next job falls due, but at most the poll interval (other processes submit).
    ///
    /// A job due in the future: a millisecond is added to the time left, cut to whole
    /// milliseconds, so the worker wakes up to a millisecond after it falls due, never before
    /// (which would only find it not due yet, and sleep again). A job due already (time moved on
    /// since the claim looked: a test's clock moves in jumps) is looked for again at once: a
    /// millisecond more would be a millisecond past the time a test's clock stands at, and would
    /// never come. The time is read once, for the due time and the deadline alike.
    private func idleDeadline(nextDue: Date?) -> ContinuousClock.Instant {
        let now = environment.clock.now
        let poll = environment.options.pollInterval
        // Compared as seconds before any conversion: a due time years away (a store file may
        // say anything) must not overflow the milliseconds.
        guard let untilDue = nextDue?.timeIntervalSince(environment.clock.date(at: now)), untilDue < poll.timeInterval else {
            return now + poll
        }
        return untilDue > 0 ? now + .milliseconds(Int(untilDue * 1000) + 1) : now
    }

    /// Runs the claimed jobs in order and commits their outcomes; returns how many ran and how
    /// long their executors took. Jobs not started when the pool stops go back to the queue
    /// untouched.
    private func runBatch(_ jobs: [ClaimedJob], claimedAt: ContinuousClock.Instant) async -> (ran: Int, executing: Duration) {
        var pending: [(Resolution, StoredJobEvent)] = []
        // Real time, whatever the store's clock: these measure how fast executors and commits
        // are, they time no wait.
        var oldestPending = ContinuousClock.now
        var ran = 0
        var executing = Duration.zero
        for job in jobs {
            if isStopping() { break }
            if pending.isEmpty { oldestPending = .now }
            let started = ContinuousClock.now
            pending.append(await execute(job, claimedAt: claimedAt))
            let took = ContinuousClock.now - started
            executing += took
            environment.events.ran(StoredJobRun(kind: JobRedaction.redacted(job.kind), duration: took))
            ran += 1
            if ContinuousClock.now - oldestPending >= environment.options.maxCommitDelay {
                await commit(pending)
                pending = []
            }
        }
        await commit(pending)
        if ran < jobs.count { await release(Array(jobs[ran...])) }
        return (ran, executing)
    }

    /// Runs one job's executor and resolves its answer.
    private func execute(_ job: ClaimedJob, claimedAt: ContinuousClock.Instant) async -> (Resolution, StoredJobEvent) {
        let attempt = StoredJobAttempt(
            id: job.id, retries: job.retries, isRecovery: job.isRecovery, claimedAt: claimedAt)
        environment.events.emit([.started(job.id, kind: job.kind, attempt: attempt)])
        // Claims only name registered kinds, and executors are never removed.
        guard let executor = environment.registry.executor(for: job.kind) else {
            preconditionFailure("TaskFlowStore: claimed a job of kind \(job.kind), which has no executor")
        }
        guard let tracer = ActiveTracer.current else {
            let answer = await executor.run(job.payload, attempt)
            return environment.resolver.resolve(answer, of: job, policy: executor.policy, now: environment.clock.date)
        }
        let span = Self.runSpan(of: job, tracer: tracer)
        defer { span.end() }
        let answer = await ServiceContext.$current.withValue(span.context) { await executor.run(job.payload, attempt) }
        let resolved = environment.resolver.resolve(answer, of: job, policy: executor.policy, now: environment.clock.date)
        if case .failed(_, _, let reason) = resolved.1 { span.setStatus(SpanStatus(code: .error, message: reason)) }
        return resolved
    }

    /// The span of one run of `job`, named after its kind: a trace of its own (a run may come
    /// long after the submit, in another process), linked to the span that submitted the job.
    private static func runSpan(of job: ClaimedJob, tracer: any Tracer) -> any Span {
        let span = tracer.startSpan(job.kind, context: .topLevel, ofKind: .consumer)
        span.attributes["taskflow.job.id"] = job.id.rawValue
        span.attributes["taskflow.job.kind"] = job.kind
        span.attributes["taskflow.job.retries"] = job.retries
        if let submitter = StoredTraceContext.extract(job.traceContext) {
            span.addLink(SpanLink(context: submitter, attributes: [:]))
        }
        return span
    }

    /// Commits outcomes in one transaction, then reports those that still held their lease.
    ///
    /// A database error (a server restarting, a connection lost) is reported once and the commit
    /// tried again, waiting longer each time, until it goes through or the pool stops: the jobs'
    /// leases are renewed by owner meanwhile, so giving up would leave them claimed for good.
    /// Trying again is safe, because each outcome is fenced by its claim token. If the pool
    /// stops first, the jobs come back when their leases run out.
    private func commit(_ pending: [(Resolution, StoredJobEvent)]) async {
        guard !pending.isEmpty else { return }
        defer { environment.held.release(pending.map(\.0.job)) }
        var wait = Self.firstCommitRetry
        while true {
            do {
                let applied = try await environment.backend.apply(pending.map(\.0), now: environment.clock.date)
                environment.publish(zip(pending, applied).compactMap { $1 ? $0.1 : nil })
                return
            } catch {
                if wait == Self.firstCommitRetry {
                    environment.events.emit([.storeError("recording outcomes (trying again): \(error)")])
                }
                guard !isStopping(), (try? await environment.clock.sleep(until: environment.clock.now + wait)) != nil else { return }
                wait = min(wait * 2, Self.lastCommitRetry)
            }
        }
    }

    /// How long a failed commit waits before it is tried again, at first and at most.
    private static let firstCommitRetry = Duration.milliseconds(50)
    private static let lastCommitRetry = Duration.seconds(2)

    private func release(_ jobs: [ClaimedJob]) async {
        defer { environment.held.release(jobs) }
        do {
            try await environment.backend.release(jobs)
        } catch {
            environment.events.emit([.storeError("releasing jobs at stop: \(error)")])
        }
    }
}
