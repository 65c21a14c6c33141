extension ScopeCore {
    /// Runs a group or sequence as one step whose reverts are its children's.
    func perform(_ composite: CompositeBody) async throws {
        return try await perform(composite.title, composite.inParallel ? .group : .sequence) { step in
            if composite.inParallel {
                // A failing child cancels its siblings through this flag, not the whole flow.
                let siblings = CancellationScope(parent: cancellation)
                try await child(of: step.id, cancellation: siblings).runParallel(composite.children, siblings: siblings)
            } else {
                try await child(of: step.id).runSerial(composite.children)
            }
        } revert: { _, _ in .none }
    }

    /// Runs every child at once. On the first error: cancel the siblings through `siblings`,
    /// the flag their scopes read (this scope's), wait for all of them, and rethrow (the caller
    /// reverts what completed), together with every revert failure any child's own rollback
    /// had. A real failure wins over `CancellationError`, whichever came first: children that
    /// stopped because of a cancel must not hide a sibling's failure as a cancel.
    func runParallel(_ children: [CompositeChild], siblings: CancellationScope) async throws {
        // Ids in the order the group lists its children, so observers show them in that order.
        let ids = record.reserveStepIDs(children.count)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in children.indices {
                var childScope = self
                childScope.reservedID = ids[index]
                let child = children[index]
                group.addTask { [childScope] in try await child.run(childScope) }
            }
            var outcome = GroupOutcome()
            // `next()` rather than `nextResult()`: the latter, run unspecialised from the
            // standard library, looks up `Result`'s metadata at run time for every child.
            while true {
                do {
                    guard try await group.next() != nil else { break }
                } catch {
                    if outcome.record(error) { siblings.cancel() }
                }
            }
            if let error = outcome.error { throw error }
        }
    }

    /// Runs the children in order; stops before the next child once cancelled and at the first
    /// error (the caller reverts what completed).
    func runSerial(_ children: [CompositeChild]) async throws {
        for child in children {
            try await child.run(self)
        }
    }
}

/// The errors of a group's children, reduced to the one the group throws.
private struct GroupOutcome {
    private var cancellation: (any Error)?
    private var failure: (any Error)?
    private var failures: [RevertFailure] = []

    /// Records a child's error; returns true for the group's first error, which cancels the
    /// siblings.
    mutating func record(_ error: any Error) -> Bool {
        let isFirst = cancellation == nil && failure == nil
        let (cause, childFailures) = RollbackIncompleteError.split(error)
        failures += childFailures
        if cause is CancellationError {
            cancellation = cancellation ?? cause
        } else {
            failure = failure ?? cause
        }
        return isFirst
    }

    /// The first real failure, else the cancellation, carrying every revert failure; nil if
    /// no child threw.
    var error: (any Error)? {
        guard let cause = failure ?? cancellation else { return nil }
        return RollbackIncompleteError.wrapping(cause, failures)
    }
}
