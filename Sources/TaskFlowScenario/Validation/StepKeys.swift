/// The key that names a step's kind in a file; its value is the step's title.
enum StepKindKey: String, CaseIterable {
    case main, task, group, sequence, update

    var isComposite: Bool { self == .group || self == .sequence }
}

/// Which keys each kind of step accepts where it is written, and, for keys that are valid
/// elsewhere, a one-line reason why they are not valid here, so the error teaches the rule.
enum StepKeys {
    private static let known = ["duration", "revert", "progress", "fail_at", "fail_chance", "steps", "set", "append"]

    /// The keys a `kind` step accepts at `place`.
    static func allowed(_ kind: StepKindKey, at place: StepPlace) -> [String] {
        [kind.rawValue] + known.filter { reason(rejecting: $0, kind: kind, at: place) == nil }
    }

    /// The reasons for every known step key that a `kind` step rejects at `place`.
    static func reasons(_ kind: StepKindKey, at place: StepPlace) -> [String: String] {
        known.reduce(into: [:]) { reasons, key in
            reasons[key] = reason(rejecting: key, kind: kind, at: place)
        }
    }

    /// Why `key` is not accepted by a `kind` step at `place`, or nil if it is.
    static func reason(rejecting key: String, kind: StepKindKey, at place: StepPlace) -> String? {
        switch (key, kind) {
        case ("revert", _) where place.access == .read:
            "read flows change nothing, so their steps have nothing to revert"
        case ("revert", .group), ("revert", .sequence):
            "a \(kind) is reverted through its steps"
        case ("duration", .main) where place.container == .composite:
            "a main step inside a group or sequence runs at once on the main actor; "
                + "give main steps a duration at a flow's top level or inside a task"
        case ("duration", .group), ("duration", .sequence):
            "a \(kind) takes as long as its steps"
        case ("duration", .update), ("revert", .update):
            "an update is instant and reverted by restoring the previous state"
        case ("progress", .main), ("progress", .group), ("progress", .sequence), ("progress", .update):
            "only task steps report progress"
        case ("fail_at", .group), ("fail_at", .sequence), ("fail_at", .update),
            ("fail_chance", .group), ("fail_chance", .sequence), ("fail_chance", .update):
            "only main and task steps fail on purpose"
        case ("steps", .main), ("steps", .update):
            "only tasks (foreground sub-steps), groups and sequences contain steps"
        case ("set", _) where kind != .update, ("append", _) where kind != .update:
            "state changes belong in an update step"
        case ("duration", _), ("revert", _), ("progress", _), ("fail_at", _), ("fail_chance", _), ("steps", _),
            ("set", _), ("append", _):
            nil
        default:
            "it is not a step key"
        }
    }
}
