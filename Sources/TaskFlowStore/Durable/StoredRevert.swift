/// What undoes one step of a durable flow, as a value the journal keeps (JSON) and hands, after
/// any restart, to the handler registered for its ``kind`` (``DurableFlows/register(_:retry:handler:)``).
///
/// ```swift
/// struct DeletePhoto: StoredRevert { static let kind = "delete-photo"; let key: String }
/// ```
///
/// The value must say everything the revert needs, chosen before the step runs (the photo's
/// key, not "the photo it uploads"): the journal writes it before the step starts, so that a
/// crash at any moment of the step leaves its revert behind. `kind` names the type in the
/// database, so it must stay the same across releases of the program.
public protocol StoredRevert: Codable, Sendable {
    /// The stable name of this revert type in the journal; unique among the types registered.
    static var kind: String { get }
}
