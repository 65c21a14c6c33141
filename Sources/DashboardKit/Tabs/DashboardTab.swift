/// One view of the dashboard, which `Tab` cycles through: the flows, the job queues, the stored
/// jobs, or any later one. A view owns everything that depends on it being the one shown: its
/// rows and selection, its keys (and so what the status bar hints and the help lists), what it
/// offers, and the three panes it draws. The model keeps the views in a list (see
/// ``DashboardModel/tabs``) and asks the shown one; it knows none of them by name, so adding a
/// view is adding a type (tokio-console's views, each with its own table state, are the anchor).
///
/// A view is a value inside the model: it changes only through ``perform(_:_:)`` and
/// ``editFilter(_:_:)`` (keys) and through what feeds it its data (each view's own methods,
/// reached with ``DashboardModel/update(_:_:)``), never while rendering.
package protocol DashboardTab: Sendable {
    /// What its keys do.
    associatedtype Action: Hashable & Sendable

    /// How panel titles name it: "Tab: stored jobs".
    var name: String { get }

    /// Its keys while it is shown, in the order the help lists them; the keys of every view
    /// (``KeyMap``) come after them.
    var keys: [KeyRow<Action>] { get }

    /// Carries out one of its keys' actions. `shared` is what every view reads and may change:
    /// the flow board, the mode (a view may ask a ``Question``), the notice. Returns the commands
    /// the session is to carry out.
    mutating func perform(_ action: Action, _ shared: inout SharedState) -> [Command]

    /// Whether `action` can do something now; the status bar greys out the hints of the others.
    func offers(_ action: Action, _ shared: SharedState) -> Bool

    /// Whether `action` still acts while quitting: moving around does, anything that would hide
    /// the rollback or start work does not.
    func actsWhileQuitting(_ action: Action) -> Bool

    /// The share of the body, in percent, its list pane takes (see ``DashboardLayout``).
    var listShare: Int { get }

    /// Its list, detail and side panes for `model`, which holds it as its shown view.
    func panes(of model: DashboardModel, glyphs: Glyphs) -> TabPanes

    /// True while what it shows moves with time alone (countdowns, progress): the session then
    /// redraws on the clock's ticks.
    func isAnimated(_ shared: SharedState) -> Bool

    /// The filter typed with `/` (``Mode/filter``), as the status bar shows it.
    var filter: String { get }

    /// Why the filter being typed does not apply (an unknown field), for the status bar.
    var filterError: String? { get }

    /// A key typed while ``Mode/filter`` is on.
    mutating func editFilter(_ key: Key, _ shared: inout SharedState)

    /// A click on its list: selects the row at `index` of the list as shown (filtered, sorted,
    /// a queue's heading counting as a row); an index past the end changes nothing.
    mutating func selectRow(at index: Int, _ shared: SharedState)

    /// A click on its list or detail pane: the arrows move there from now on.
    mutating func focusPane(_ pane: DashboardPane)

    /// The wheel over its list (the selection moves `lines` rows, negative up, and stays on
    /// the list) or its detail pane (the content scrolls, when it scrolls at all).
    mutating func scroll(_ pane: DashboardPane, by lines: Int, _ shared: SharedState)

    /// A click on its list's heading of schema column `column`: sorts by it, smallest first, or
    /// inverts the sort when it is the sorted column. Returns the commands to carry out (the
    /// sort to remember).
    mutating func sort(byColumn column: Int, _ shared: inout SharedState) -> [Command]
}

/// The widgets a view draws in the body's three panes (see ``DashboardLayout``).
package struct TabPanes {
    /// The list (flows, queues, jobs), at the top.
    package let list: any Widget
    /// The selection in full, below it on the left.
    package let detail: any Widget
    /// What sits beside the detail: the lock, the store's worker processes.
    package let side: any Widget

    package init(list: any Widget, detail: any Widget, side: any Widget) {
        self.list = list
        self.detail = detail
        self.side = side
    }
}

extension DashboardTab {
    /// A list as tall as a third of the body: the flows' share.
    package var listShare: Int { DashboardLayout.defaultListShare }

    /// Nothing moves by itself.
    package func isAnimated(_ shared: SharedState) -> Bool { false }

    /// Every action is offered.
    package func offers(_ action: Action, _ shared: SharedState) -> Bool { true }

    /// Nothing acts while quitting.
    package func actsWhileQuitting(_ action: Action) -> Bool { false }

    /// No filter.
    package var filter: String { "" }

    /// No filter, so nothing wrong with it.
    package var filterError: String? { nil }

    /// A view without a list selects nothing.
    package mutating func selectRow(at index: Int, _ shared: SharedState) {}

    /// A view whose arrows always move in its list keeps them there.
    package mutating func focusPane(_ pane: DashboardPane) {}

    /// A view without a list or a scrolling detail scrolls nothing.
    package mutating func scroll(_ pane: DashboardPane, by lines: Int, _ shared: SharedState) {}

    /// A view without sortable columns sorts nothing.
    package mutating func sort(byColumn column: Int, _ shared: inout SharedState) -> [Command] { [] }

    /// A view without a filter ends the typing at once.
    package mutating func editFilter(_ key: Key, _ shared: inout SharedState) {
        shared.mode = .normal
    }

    /// Applies `key` if it is one of this view's: nil when it is not (the global keys come
    /// next), else the commands it asks for (none while quitting, unless the action still acts).
    mutating func handle(_ key: Key, _ shared: inout SharedState) -> [Command]? {
        guard let action = keys.lazy.compactMap({ $0.bindings[key] }).first else { return nil }
        guard !shared.quitting || actsWhileQuitting(action) else { return [] }
        return perform(action, &shared)
    }

    /// Its rows as the help lists them.
    var keyHelp: [KeyHelp] { keys.map(\.help) }

    /// Its rows as the help lists them, but those whose keys all do something else (`taken`:
    /// a replay's keys).
    func keyHelp(leavingOut taken: Set<Key>) -> [KeyHelp] {
        keys.filter { !$0.isTaken(by: taken) }.map(\.help)
    }

    /// Its status bar hints, each with whether it can do something now.
    func hints(_ shared: SharedState) -> [(hint: KeyHint, offered: Bool)] {
        keys.compactMap { row in
            row.hint.map { hint in (hint, row.bindings.values.first.map { offers($0, shared) } ?? true) }
        }
    }

    /// Whether `key`, one of its keys, can do something now; nil when it is not one of its keys.
    func offers(_ key: Key, _ shared: SharedState) -> Bool? {
        keys.lazy.compactMap { $0.bindings[key] }.first.map { offers($0, shared) }
    }

    /// Runs `change` on this view as a `T`, in place, when it is one; nil otherwise. In place,
    /// so that a view's board (thousands of jobs) is not copied for each event it takes.
    mutating func change<T: DashboardTab, Result>(as type: T.Type, _ change: (inout T) -> Result) -> Result? {
        guard Self.self == T.self else { return nil }
        return withUnsafeMutablePointer(to: &self) { pointer in
            // Self is T, checked above: the same type, so the memory holds a T.
            pointer.withMemoryRebound(to: T.self, capacity: 1) { change(&$0.pointee) }
        }
    }
}
