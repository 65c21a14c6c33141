extension StepScope {
    /// Runs every child at once. On the first error: cancel the siblings through the scope's
    /// flag, wait for all of them, and rethrow that error (the caller reverts what completed),
    /// together with every revert failure any child's own rollback had.
    static func runParallel(_ children: [CompositeStep<State>.Child], in scope: StepScope) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for child in children {
                group.addTask { try await child(scope) }
            }
            var firstError: (any Error)?
            var failures: [RevertFailure] = []
            while let result = await group.nextResult() {
                guard case .failure(let error) = result else { continue }
                let (cause, childFailures) = RollbackIncompleteError.split(error)
                failures += childFailures
                if firstError == nil {
                    firstError = cause
                    scope.cancellation.cancel()
                }
            }
            if let firstError { throw RollbackIncompleteError.wrapping(firstError, failures) }
        }
    }

    /// Runs the children in order; stops before the next child once cancelled and at the first
    /// error (the caller reverts what completed).
    static func runSerial(_ children: [CompositeStep<State>.Child], in scope: StepScope) async throws {
        for child in children {
            try await child(scope)
        }
    }
}
