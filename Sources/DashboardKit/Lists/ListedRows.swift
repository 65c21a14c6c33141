/// The rows a list shows, in the order it shows them: a board's rows seen through a filter and
/// a sort (``ListQuery/apply(_:_:)``), without a copy of any row. A list of 100,000 flows is
/// filtered and sorted at every frame, and a frame draws only the forty rows on screen: the
/// rest are never read.
package struct ListedRows<Row>: RandomAccessCollection {
    private let rows: [Row]
    /// The positions in `rows` of the rows shown, in order; nil shows them all as they are.
    private let order: [Int]?

    /// Every one of `rows`, as they are.
    init(all rows: [Row]) {
        self.rows = rows
        order = nil
    }

    /// The rows at `order`'s positions of `rows`, in that order.
    init(_ rows: [Row], order: [Int]) {
        self.rows = rows
        self.order = order
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { order?.count ?? rows.count }

    package subscript(position: Int) -> Row {
        rows[order.map { $0[position] } ?? position]
    }
}

extension ListedRows: Sendable where Row: Sendable {}
