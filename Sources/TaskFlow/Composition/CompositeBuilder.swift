/// Collects the children of a ``CompositeStep`` while its `build` closure runs. Each method adds
/// one child, in order; nothing runs until the composite is performed.
public final class CompositeBuilder<State: Sendable> {
    private(set) var children: [CompositeChild] = []

    init() {}

    /// Adds a background step. `revert` receives what `apply` returned.
    public func task<T: Sendable>(
        title: String,
        apply: @escaping @Sendable (TaskContext<State>) async throws -> T,
        revert: (@Sendable (TaskContext<State>, T) async throws -> Void)? = nil
    ) {
        children.append(CompositeChild { core in _ = try await StepScope<State>(core).task(title, apply: apply, revert: revert) })
    }

    /// Adds a synchronous foreground step, run on the main actor.
    public func main<T: Sendable>(
        title: String = "Main",
        apply: @escaping @MainActor @Sendable () throws -> T,
        revert: (@MainActor @Sendable (T) throws -> Void)? = nil
    ) {
        children.append(CompositeChild { core in _ = try await core.main(title, apply: apply, revert: revert) })
    }

    /// Adds a nested group.
    public func group(title: String, _ build: (CompositeBuilder<State>) throws -> Void) rethrows {
        add(try .group(title: title, build))
    }

    /// Adds a nested sequence.
    public func sequence(title: String, _ build: (CompositeBuilder<State>) throws -> Void) rethrows {
        add(try .sequence(title: title, build))
    }

    /// Adds a child that runs `run` in the group's or sequence's scope: how another module of
    /// the package adds a kind of step (a durable one) to a composite.
    package func addChild(_ run: @escaping @Sendable (StepScope<State>) async throws -> Void) {
        children.append(CompositeChild { core in try await run(StepScope(core)) })
    }

    /// Adds an existing description as a child.
    public func add(_ composite: CompositeStep<State>) {
        let body = composite.body
        children.append(CompositeChild { core in try await core.perform(body) })
    }
}
