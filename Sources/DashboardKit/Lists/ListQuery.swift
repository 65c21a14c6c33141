/// A view's filter and sort, as typed: what `/`, `<`, `>`, `i` and Esc change, and what a list
/// shows through ``apply(_:_:)``. While the filter is typed it applies at each key; a term that
/// cannot apply (an unknown field) is left out — the others apply — and ``error`` says why,
/// which the status line shows; Enter then drops it from the text.
package struct ListQuery: Sendable, Hashable {
    /// The filter as typed.
    package private(set) var text = ""
    /// The filter in force: the terms of ``text`` that parse.
    package private(set) var filter: ListFilter?
    /// Why ``text`` does not apply, while it does not.
    package private(set) var error: ListFilterError?
    /// The sort in force; nil keeps the list's own order.
    package var sort: ListSort?
    /// The words of ``text`` that parse, which Enter keeps.
    private var appliedText = ""

    /// No filter, `sort` if given.
    package init(sort: ListSort? = nil) {
        self.sort = sort
    }

    /// True while a filter narrows the list: bulk keys act on what it matches.
    package var isFiltering: Bool { filter.map { !$0.isEmpty } ?? false }

    /// Sets the typed text to `text` and applies what of it parses against `fields`.
    package mutating func setText(_ text: String, fields: [String]) {
        self.text = text
        (filter, error, appliedText) = ListFilter.parse(text, fields: fields)
    }

    /// A key typed in the filter: a character or Backspace edits it. Returns false for any
    /// other key, which the view handles (Enter, Esc).
    package mutating func edit(_ key: Key, fields: [String]) -> Bool {
        switch key {
        case .character(let character): setText(text + String(character), fields: fields)
        case .backspace: setText(String(text.dropLast()), fields: fields)
        default: return false
        }
        return true
    }

    /// Typing ends (Enter): the terms that did not parse leave the text. Returns the error they
    /// had, for the notice.
    package mutating func commit() -> ListFilterError? {
        defer {
            text = appliedText
            error = nil
        }
        return error
    }

    /// No filter (Esc); the sort stays.
    package mutating func clearFilter() {
        text = ""
        appliedText = ""
        filter = nil
        error = nil
    }

    /// `rows` as the list shows them: those the filter passes, in the sort's order.
    package func apply<Row>(_ rows: [Row], _ schema: ListSchema<Row>) -> ListedRows<Row> {
        let filtering = filter.map { !$0.isEmpty } ?? false
        let column = sort.flatMap { schema.columns.indices.contains($0.column) ? schema.columns[$0.column] : nil }
        guard filtering || column != nil else { return ListedRows(all: rows) }
        var order = Array(rows.indices)
        // Through the buffer: `rows[$0]` copied each row (a retain per field) before reading it.
        if let filter, filtering { rows.withUnsafeBufferPointer { rows in order.removeAll { !schema.passes(rows[$0], filter) } } }
        if let sort, let column { order = column.order(rows, order, sort.ascending) }
        return ListedRows(rows, order: order)
    }

    /// The arrow a heading of column `name` of `schema` ends with: `▲` when the list is sorted
    /// by it smallest first, `▼` largest first (`^`, `v` in ASCII), else nothing.
    package func mark<Row>(for name: String, _ schema: ListSchema<Row>, glyphs: Glyphs) -> String {
        guard let sort, schema.columns.indices.contains(sort.column), schema.columns[sort.column].name == name else { return "" }
        switch (sort.ascending, glyphs.unicode) {
        case (true, true): return "▲"
        case (false, true): return "▼"
        case (true, false): return "^"
        case (false, false): return "v"
        }
    }

    /// What a list's panel title says of the filter: `12 of 3,402 — filter "state:failed"`,
    /// nothing without one.
    package func summary(shown: Int, of total: Int) -> String? {
        guard isFiltering else { return nil }
        return "\(shown.grouped) of \(total.grouped) — filter \"\(text)\""
    }

    /// The sort key's action: `<`, `>` or `i`.
    package mutating func sortKey(_ action: SortKey, columns: Int) {
        let current = sort ?? ListSort(column: 0)
        switch action {
        case .previous: sort = sort == nil ? ListSort(column: columns - 1) : current.moved(by: -1, among: columns)
        case .next: sort = sort == nil ? ListSort(column: 0) : current.moved(by: 1, among: columns)
        case .invert: sort = current.inverted
        }
    }

    /// What `<`, `>` and `i` do.
    package enum SortKey: Sendable, Hashable {
        /// `<`: sort by the column before.
        case previous
        /// `>`: sort by the column after.
        case next
        /// `i`: the other way round.
        case invert
    }
}

extension Int {
    /// With thousands separated by commas: `3,402`.
    var grouped: String {
        let digits = String(magnitude)
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text.append(",") }
            text.append(digit)
        }
        return self < 0 ? "-" + text : text
    }
}
