/// The demo's foreground: what its `@MainActor` steps change, like the panels and badges of a
/// real app's UI. Those steps run synchronously on the dashboard's loop, which is the main
/// actor, and their reverts undo exactly what they did.
@MainActor
final class Desk {
    /// Open sessions by name; a foreground step opens one and its revert closes it.
    private(set) var openSessions: Set<String> = []

    /// Opens a session and returns its name (the revert's input).
    func open(_ name: String) -> String {
        openSessions.insert(name)
        return name
    }

    /// Closes a session a step opened.
    func close(_ name: String) {
        openSessions.remove(name)
    }
}
