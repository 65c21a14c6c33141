import Foundation
import TaskFlow
import TaskFlowSupport

/// The executors registered per kind, with their retry policies, type-erased so that workers
/// run any kind from its stored JSON.
final class ExecutorRegistry: Sendable {
    /// What running one stored payload gave.
    enum Answer: Sendable {
        case outcome(StoredJobOutcome)
        /// The payload did not decode as the registered type: the job cannot ever run.
        case undecodable(any Error)
    }

    struct Executor: Sendable {
        let policy: RetryPolicy
        let run: @Sendable (Data, StoredJobAttempt) async -> Answer
    }

    private let executors = Protected([String: Executor]())

    /// Registers (or replaces) the executor for `Job.kind`. An executor that throws is treated
    /// as answering ``StoredJobOutcome/retry(_:)`` with the error.
    func register<Job: StoredJob>(
        _ type: Job.Type, policy: RetryPolicy,
        executor: @escaping @Sendable (Job, StoredJobAttempt) async throws -> StoredJobOutcome
    ) {
        let erased = Executor(policy: policy) { payload, attempt in
            let job: Job
            do {
                job = try JSONDecoder().decode(Job.self, from: payload)
            } catch {
                return .undecodable(error)
            }
            do {
                return .outcome(try await executor(job, attempt))
            } catch {
                return .outcome(.retry(error))
            }
        }
        executors.withLock { $0[Job.kind] = erased }
    }

    /// The kinds that have an executor, sorted (a stable claim statement for the same set).
    var kinds: [String] {
        executors.withLock { $0.keys.sorted() }
    }

    func executor(for kind: String) -> Executor? {
        executors.withLock { $0[kind] }
    }
}
