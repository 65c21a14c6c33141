/// What a view's list can be sorted and filtered by: its sortable columns in heading order,
/// its filter fields (`state:`, `kind:`), and the text plain words search. Each view declares
/// one; ``ListQuery`` applies it.
package struct ListSchema<Row>: Sendable {
    /// The columns `<` and `>` go through, in heading order.
    package let columns: [ListColumn<Row>]
    /// The fields `field:value` terms name, in the order errors list them, each with the
    /// row's value for it.
    package let fields: [(name: String, value: @Sendable (Row) -> String)]
    /// What plain words search: a flow's title, a job's title or kind.
    package let text: @Sendable (Row) -> String

    /// A schema of `columns`, `fields` and searchable `text`.
    package init(
        columns: [ListColumn<Row>], fields: [(name: String, value: @Sendable (Row) -> String)], text: @escaping @Sendable (Row) -> String
    ) {
        self.columns = columns
        self.fields = fields
        self.text = text
    }

    /// The fields' names.
    package var fieldNames: [String] { fields.map(\.name) }

    /// The index of the column named `name`, if there is one.
    package func column(named name: String) -> Int? {
        columns.firstIndex { $0.name == name }
    }

    /// Whether `row` passes `filter`. The row's text and fields are lowercased only if a term
    /// reads them: `state:failed` on 100,000 flows never lowercases a title.
    func passes(_ row: Row, _ filter: ListFilter) -> Bool {
        filter.matches(row, text: text) { name, row in
            for field in fields where field.name == name { return field.value(row) }
            return ""
        }
    }
}
