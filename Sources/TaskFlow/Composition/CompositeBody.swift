/// What a ``CompositeStep`` runs, without its state type: the engine runs groups and sequences
/// from code not specialised for the state, where a generic type's methods and arrays look its
/// metadata up at run time (see ``ScopeCore``).
struct CompositeBody: Sendable {
    /// The title shown for the whole group or sequence.
    let title: String
    /// A group (children at once) rather than a sequence (one after another).
    let inParallel: Bool
    /// The children, in the order they were added.
    let children: [CompositeChild]
}
