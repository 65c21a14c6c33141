/// How a flow or a job ended, its value type erased until its handle casts it back: what its
/// body returned, or the error it ended with.
///
/// A struct of the two, not `Result<any Sendable, any Error>` nor an enum of them: an enum with
/// an existential inside is copied, destroyed and even pattern-matched through value witnesses
/// (a generic one's through the runtime's, about 100 instructions each, half a dozen times per
/// job), and so is any optional of it. This struct's copy is the existential's own copy and a
/// retain.
struct ErasedOutcome: Sendable {
    /// What the body returned; `()` for a failure.
    private let value: any Sendable
    /// The error it failed, was cancelled or never ran with; nil for a success.
    let error: (any Error)?

    private init(value: any Sendable, error: (any Error)?) {
        self.value = value
        self.error = error
    }

    /// The body returned `value`.
    static func success(_ value: any Sendable) -> ErasedOutcome {
        ErasedOutcome(value: value, error: nil)
    }

    /// It ended with `error`.
    static func failure(_ error: any Error) -> ErasedOutcome {
        ErasedOutcome(value: (), error: error)
    }

    /// The value, or the error thrown.
    func get() throws -> any Sendable {
        if let error { throw error }
        return value
    }
}
