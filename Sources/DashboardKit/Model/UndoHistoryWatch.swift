import TaskFlow

/// Whether the engine's undo history is full, as its events show: it is once a flow's undo
/// expired (``TaskFlow/FlowEvent/undoExpired(_:)``: a newer completed write flow pushed it
/// out, so every further completion pushes out another), and it no longer is once an undo ran
/// (the engine takes the flow out of the history when its reverts start, which frees a place;
/// an undo refused before any revert leaves it in). What the undo-history warning reads
/// (``WarningKind/undoHistoryFull``).
package struct UndoHistoryWatch: Sendable, Hashable {
    /// True from an expiry until an undo frees a place.
    package private(set) var isFull = false
    /// The flow whose undo expired last, while full.
    package private(set) var lastExpired: FlowID?
    /// How many flows' undos expired since the board started.
    package private(set) var expiredCount = 0

    /// Nothing expired yet.
    package init() {}

    /// Takes in `event`, `row` being its flow as the board had it before the event.
    mutating func record(_ event: FlowEvent, before row: FlowRow?) {
        switch event {
        case .undoExpired(let id):
            isFull = true
            lastExpired = id
            expiredCount += 1
        case .statusChanged(_, let status) where row?.phase == .undoing && [.undone, .rollbackIncomplete].contains(status.phase):
            // The undo ran, so it left the history: a place is free until the next completion.
            isFull = false
            lastExpired = nil
        default:
            break
        }
    }
}
