/// One child of a group or sequence: how it runs in the scope it is given.
///
/// A struct around the closure rather than the bare closure: an array of closures is read
/// through reabstraction thunks, two allocations per child at every run. Not generic over the
/// state, although every ``CompositeBuilder`` method that makes one knows it: the builder and
/// the group run unspecialised, and there an array of a generic type, or a call to its
/// methods, looks the type's metadata up at run time, per child.
struct CompositeChild: Sendable {
    let run: @Sendable (ScopeCore) async throws -> Void
}
