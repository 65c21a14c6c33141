/// A reusable description of steps run together as one step: a **group** (children in
/// parallel) or a **sequence** (children one after another). The description holds no run
/// state, so it can be performed any number of times, in any flows of the same manager, and
/// nested in other groups and sequences.
///
/// ```swift
/// let upload = CompositeStep<Library>.group(title: "Upload media") { group in
///     group.task(title: "photo 1", apply: { _ in try await upload(photo) }, revert: { _, _ in try await delete(photo) })
///     group.sequence(title: "video") { seq in /* ... */ }
/// }
/// try await flow.perform(upload)
/// ```
///
/// Semantics, as a step: a group starts every child at once; the first child error sets the
/// siblings' ``TaskContext/isCancelled``, waits for all of them, reverts the children that
/// completed (in reverse completion order) and rethrows that first error — or, when the first
/// errors were cancellations it caused, the first real failure (a failure is never hidden as a
/// cancel). A sequence runs its
/// children in order and stops at the first error, reverting the completed ones last-first. A
/// completed group or sequence is reverted as one unit during its flow's rollback.
public struct CompositeStep<State: Sendable>: Sendable {
    /// Parallel or serial.
    public enum Mode: Sendable {
        /// Children run in parallel.
        case group
        /// Children run one after another.
        case sequence
    }

    /// The title shown for the whole group or sequence.
    public var title: String { body.title }
    /// Parallel or serial.
    public var mode: Mode { body.inParallel ? .group : .sequence }
    /// What runs: the title, the mode and the children, in a type not generic over the state.
    let body: CompositeBody

    /// Describes a group: `build` adds the children, which will run in parallel.
    public static func group(title: String, _ build: (CompositeBuilder<State>) throws -> Void) rethrows -> Self {
        try CompositeStep(title: title, mode: .group, build)
    }

    /// Describes a sequence: `build` adds the children, which will run in the order added.
    public static func sequence(title: String, _ build: (CompositeBuilder<State>) throws -> Void) rethrows -> Self {
        try CompositeStep(title: title, mode: .sequence, build)
    }

    private init(title: String, mode: Mode, _ build: (CompositeBuilder<State>) throws -> Void) rethrows {
        let builder = CompositeBuilder<State>()
        try build(builder)
        body = CompositeBody(title: title, inParallel: mode == .group, children: builder.children)
    }
}
