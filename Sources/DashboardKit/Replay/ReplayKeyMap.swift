/// What a key of a replay asks its player to do.
package enum ReplayAction: Sendable, Hashable {
    /// Pause, or play on.
    case togglePause
    /// Play twice as fast (up to ``ReplayTimeline/speeds``' end).
    case faster
    /// Play half as fast (down to ``ReplayTimeline/speeds``' start).
    case slower
    /// Jump to the next recorded event.
    case nextEvent
    /// Jump back to the previous recorded event.
    case previousEvent
    /// Jump ``ReplayTimeline/jump`` on.
    case jumpForward
    /// Jump ``ReplayTimeline/jump`` back.
    case jumpBack
    /// Jump to the recording's start.
    case start
    /// Jump to the recording's end.
    case end
}

/// The keys of a replay. In a replay they come before every view's keys, in the normal mode
/// only (a filter being typed takes its spaces and dashes): Home and End move in time there,
/// not in the list, and `p` pauses the replay rather than freezing the view. The help lists
/// them first, in place of the rows of the keys they take over, in three rows, so that every
/// key still shows at the minimum screen size.
package enum ReplayKeyMap {
    /// The replay's keys, in the order the help lists them.
    package static let rows: [KeyRow<ReplayAction>] = [
        KeyRow(keys: "space, p", action: "replay: pause / play", bindings: [.character(" "): .togglePause, .character("p"): .togglePause]),
        KeyRow(
            keys: "+ / -, ← / →", action: "replay: speed x2 / /2; event back / on",
            bindings: [.character("+"): .faster, .character("-"): .slower, .left: .previousEvent, .right: .nextEvent]),
        KeyRow(
            keys: "[ ] Home End", action: "replay: 10 s back / on; start / end",
            bindings: [.character("["): .jumpBack, .character("]"): .jumpForward, .home: .start, .end: .end]),
    ]

    /// Every key a replay takes over.
    package static let keys = Set(rows.flatMap(\.bindings.keys))

    /// What `key` does in a replay, if anything.
    package static func action(for key: Key) -> ReplayAction? {
        rows.lazy.compactMap { $0.bindings[key] }.first
    }
}

extension KeyRow {
    /// True when every key of the row is among `taken`: in a replay, the row's keys do the
    /// replay's actions instead.
    func isTaken(by taken: Set<Key>) -> Bool {
        taken.isSuperset(of: bindings.keys)
    }
}
