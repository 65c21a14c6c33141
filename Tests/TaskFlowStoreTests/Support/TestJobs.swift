import TaskFlowTestSupport
import TaskFlow
import TaskFlowStore

/// The job most tests submit.
struct Greeting: StoredJob, Equatable {
    static let kind = "greeting"
    let name: String
}

/// A failure executors return.
struct Boom: Error, CustomStringConvertible {
    let what: String
    init(_ what: String = "boom") { self.what = what }
    var description: String { "Boom(\(what))" }
}

extension JobStore {
    /// Registers an executor for ``Greeting`` that records every attempt it is given and answers
    /// `answer(attempt)`; returns the record.
    func registerGreeting(
        retry policy: RetryPolicy = .never,
        answer: @escaping @Sendable (StoredJobAttempt) -> StoredJobOutcome = { _ in .success }
    ) -> Recorder<StoredJobAttempt> {
        let attempts = Recorder<StoredJobAttempt>()
        register(Greeting.self, retry: policy) { _, attempt in
            attempts.record(attempt)
            return answer(attempt)
        }
        return attempts
    }
}
