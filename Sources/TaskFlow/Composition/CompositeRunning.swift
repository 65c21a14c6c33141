extension StepScope {
    /// Runs every child at once. On the first error: cancel the siblings through the scope's
    /// flag, wait for all of them, and rethrow that error (the caller reverts what completed).
    static func runParallel(_ children: [CompositeStep<State>.Child], in scope: StepScope) async throws {
        try await withThrowingTaskGroup(of: Void.self) { group in
            for child in children {
                group.addTask { try await child(scope) }
            }
            var firstError: (any Error)?
            while let result = await group.nextResult() {
                if case .failure(let error) = result, firstError == nil {
                    firstError = error
                    scope.cancellation.cancel()
                }
            }
            if let firstError { throw firstError }
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
