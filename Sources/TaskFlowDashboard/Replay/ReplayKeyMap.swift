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
/// only (a filter being typed takes its spaces and dashes), so Home and End move in time there,
/// not in the list; the help lists them first, in place of the views' rows for the same keys.
package enum ReplayKeyMap {
    /// The replay's keys, in the order the help lists them.
    package static let rows: [KeyRow<ReplayAction>] = [
        KeyRow(
            keys: "space, + / -", action: "replay: pause / play; speed x2 / /2",
            bindings: [.character(" "): .togglePause, .character("+"): .faster, .character("-"): .slower]),
        KeyRow(
            keys: "← / →, [ / ]", action: "replay: event back / on; 10 s back / on",
            bindings: [.left: .previousEvent, .right: .nextEvent, .character("["): .jumpBack, .character("]"): .jumpForward]),
        KeyRow(keys: "Home / End", action: "replay: the recording's start / end", bindings: [.home: .start, .end: .end]),
    ]

    /// What `key` does in a replay, if anything.
    package static func action(for key: Key) -> ReplayAction? {
        rows.lazy.compactMap { $0.bindings[key] }.first
    }
}
