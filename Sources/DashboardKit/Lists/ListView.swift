/// A view whose list the user sorts and filters: what `/`, Esc, `<`, `>` and `i` do is the same
/// in every such view (flows, job queues, stored jobs), so it lives here once; a view says
/// what its rows are (``schema(now:)``), how its preferences name it, and how its selection
/// follows a list that changed under it.
package protocol ListView: DashboardTab {
    /// One row of its list.
    associatedtype Row

    /// Its filter and sort.
    var query: ListQuery { get set }

    /// How its preferences name it, and what its notices call its rows: "flows", "jobs".
    static var preferenceKey: String { get }
    /// What its notices call its rows: "flows", "jobs".
    static var rowNoun: String { get }

    /// What its list sorts and filters by at `now` on the model's clock (elapsed times move).
    static func schema(now: Duration) -> ListSchema<Row>

    /// Moves the selection onto a row still shown after the list's filter changed.
    mutating func keepSelectionVisible(_ shared: SharedState)

    /// Its action for `/` (start typing the filter), Esc (clear it) and a sort key.
    static var filterAction: Action { get }
    /// Its action for Esc: the filter cleared.
    static var clearFilterAction: Action { get }
    /// Its action for `<`, `>` or `i`.
    static func sortAction(_ key: ListQuery.SortKey) -> Action
}

extension ListView {
    /// The key row of `/`, Esc, `<`, `>` and `i`, the same in every list. One row for the
    /// filter and the sort, so that every view's keys fit the help at the minimum size.
    static var filterAndSortKeys: KeyRow<Action> {
        KeyRow(
            keys: "/ · < > i", action: "filter (Esc clears) · sort · invert", hint: KeyHint("/", "filter"),
            bindings: [
                .character("/"): filterAction, .escape: clearFilterAction, .character("<"): sortAction(.previous),
                .character(">"): sortAction(.next), .character("i"): sortAction(.invert),
            ])
    }

    /// The filter as typed; empty shows every row.
    package var filter: String { query.text }

    /// Why the filter being typed does not apply, for the status line.
    package var filterError: String? { query.error?.description }

    /// A key typed while ``Mode/filter`` is on: characters and Backspace edit the filter (it
    /// applies as it is typed), Enter keeps it (one that does not parse gives way to the last
    /// that did, the notice saying why), Esc clears it.
    package mutating func editFilter(_ key: Key, _ shared: inout SharedState) {
        if !query.edit(key, fields: Self.schema(now: shared.now).fieldNames) {
            switch key {
            case .enter:
                shared.mode = .normal
                if let error = query.commit() { shared.notice = "filter: \(error)" }
            case .escape: clearFilter(&shared)
            default: return
            }
        }
        keepSelectionVisible(shared)
    }

    /// Clears the filter (Esc); typing one ends.
    mutating func clearFilter(_ shared: inout SharedState) {
        if shared.mode == .filter { shared.mode = .normal }
        query.clearFilter()
        keepSelectionVisible(shared)
    }

    /// `<`, `>`, `i`: the list's order changes, the selection stays on its row, the notice says
    /// the order, and the choice is to be remembered (the returned command).
    mutating func sortList(_ key: ListQuery.SortKey, _ shared: inout SharedState) -> [Command] {
        let schema = Self.schema(now: shared.now)
        query.sortKey(key, columns: schema.columns.count)
        return announceSort(schema, &shared)
    }

    /// A click on the heading of schema column `column`: sorts by it smallest first, or, when
    /// the list is sorted by it already, the other way round; the notice says the order and the
    /// returned command remembers it, as for `<`, `>` and `i`. A column the schema does not
    /// have changes nothing.
    package mutating func sort(byColumn column: Int, _ shared: inout SharedState) -> [Command] {
        let schema = Self.schema(now: shared.now)
        guard schema.columns.indices.contains(column) else { return [] }
        query.sort = query.sort?.column == column ? query.sort?.inverted : ListSort(column: column)
        return announceSort(schema, &shared)
    }

    /// The sort just chosen, said in the notice and returned as the command that remembers it.
    private func announceSort(_ schema: ListSchema<Row>, _ shared: inout SharedState) -> [Command] {
        guard let sort = query.sort else { return [] }
        let column = schema.columns[sort.column].name
        shared.notice = "\(Self.rowNoun) sorted by \(column), \(sort.ascending ? "smallest" : "largest") first"
        return [.rememberSort(view: Self.preferenceKey, SavedSort(column: column, ascending: sort.ascending))]
    }

    /// Takes a sort the preferences kept; one naming no column of the list is ignored.
    package mutating func restoreSort(_ saved: SavedSort) {
        guard let column = Self.schema(now: .zero).column(named: saved.column) else { return }
        query.sort = ListSort(column: column, ascending: saved.ascending)
    }

    /// The column names a saved sort may name.
    package static var sortColumns: [String] { schema(now: .zero).columns.map(\.name) }

    /// " matching "text"" while a filter narrows the list, for bulk questions and notices.
    var matchingText: String { query.isFiltering ? " matching \"\(query.text)\"" : "" }

    /// "1 flow", "37 flows".
    static func count(_ count: Int) -> String {
        "\(count) \(count == 1 ? String(rowNoun.dropLast()) : rowNoun)"
    }
}
