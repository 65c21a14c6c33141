/// How a list is ordered: by one of its sortable columns (an index into the view's
/// ``ListSchema/columns``), smallest or largest first. `<` and `>` move to the column before or
/// after, `i` inverts the order (htop, tokio-console); the list's heading marks the column with
/// the direction.
package struct ListSort: Sendable, Hashable {
    /// The column, an index into the schema's columns.
    package var column: Int
    /// Smallest first when true.
    package var ascending: Bool

    /// A sort by the `column`th column, `ascending` or not.
    package init(column: Int, ascending: Bool = true) {
        self.column = column
        self.ascending = ascending
    }

    /// The sort by the column `offset` columns along (wrapping around among `count`), smallest
    /// first: a new column starts from the top.
    package func moved(by offset: Int, among count: Int) -> ListSort {
        guard count > 0 else { return self }
        return ListSort(column: ((column + offset) % count + count) % count, ascending: true)
    }

    /// The same column, the other way round.
    package var inverted: ListSort { ListSort(column: column, ascending: !ascending) }
}
