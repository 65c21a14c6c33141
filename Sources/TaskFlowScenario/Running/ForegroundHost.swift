import TaskFlow

/// Where a foreground (`main`) step can run with waits around it: a flow's top level or the
/// inside of a background step. Both engine contexts already have these methods; naming them
/// once lets the runner play main steps the same way in both.
protocol ForegroundHost: Sendable {
    func main<T: Sendable>(
        title: String,
        apply: @MainActor @Sendable () throws -> T,
        revert: @escaping @MainActor @Sendable (T) throws -> Void
    ) async throws -> T

    func main<T: Sendable>(title: String, query: @MainActor @Sendable () throws -> T) async throws -> T
}

extension FlowContext: ForegroundHost {}
extension TaskContext: ForegroundHost {}
