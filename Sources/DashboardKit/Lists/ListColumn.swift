/// A column a list can be sorted by: its name as the heading shows it (and as the preferences
/// file names it), and how it orders rows. Ties keep the list's own order (submission, id), so
/// a sort by state lists each state's rows oldest first, whichever the direction.
package struct ListColumn<Row>: Sendable {
    /// The heading's word, lowercased: `title`, `state`, `elapsed`.
    package let name: String
    /// The positions `order` of `rows` reordered by this column, smallest first or not, ties
    /// in their given order.
    let order: @Sendable (_ rows: [Row], _ order: [Int], _ ascending: Bool) -> [Int]

    /// A column named `name` ordered by `key`. Each row's key is computed once per sort, not
    /// once per comparison: sorting 100,000 rows by title must fit in a frame.
    package init<Key: Comparable & Sendable>(_ name: String, by key: @escaping @Sendable (Row) -> Key) {
        self.name = name
        order = { rows, order, ascending in
            let keyed = rows.withUnsafeBufferPointer { rows in order.map { (key: key(rows[$0]), position: $0) } }
            let sorted = keyed.sorted { a, b in
                if a.key == b.key { return a.position < b.position }
                return (a.key < b.key) == ascending
            }
            return sorted.map(\.position)
        }
    }
}
