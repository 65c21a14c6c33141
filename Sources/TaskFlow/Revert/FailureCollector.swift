/// Collects revert failures from everywhere in one flow's rollback — including rollbacks that
/// groups and sequences run on their own when a child fails — so none is dropped.
/// Copies share the same list.
struct FailureCollector: Sendable {
    private let failures = Protected<[RevertFailure]>([])

    func record(_ failure: RevertFailure) {
        failures.withLock { $0.append(failure) }
    }

    /// Returns and forgets the failures recorded so far.
    func drain() -> [RevertFailure] {
        failures.withLock { failures in
            defer { failures = [] }
            return failures
        }
    }
}
