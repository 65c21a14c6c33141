/// A rectangle of cells. Layout splits rectangles; widgets draw inside the one they are given.
package struct Rect: Sendable, Hashable {
    /// The left column.
    package var x: Int
    /// The top row.
    package var y: Int
    /// Columns.
    package var width: Int
    /// Rows.
    package var height: Int

    /// A rectangle; negative sizes count as empty.
    package init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x
        self.y = y
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    /// The row indexes it covers.
    package var rows: Range<Int> { y..<(y + height) }
    /// The column indexes it covers.
    package var columns: Range<Int> { x..<(x + width) }
    /// True when it has no cell.
    package var isEmpty: Bool { width == 0 || height == 0 }

    /// The part of both rectangles.
    package func intersection(_ other: Rect) -> Rect {
        let left = max(x, other.x), top = max(y, other.y)
        let right = min(x + width, other.x + other.width), bottom = min(y + height, other.y + other.height)
        return Rect(x: left, y: top, width: right - left, height: bottom - top)
    }

    /// The rectangle shrunk by `amount` on every side.
    package func inset(by amount: Int) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }

    /// Splits off the top `rows` rows; returns (top, rest).
    package func splitTop(_ rows: Int) -> (Rect, Rect) {
        let top = min(max(rows, 0), height)
        return (Rect(x: x, y: y, width: width, height: top), Rect(x: x, y: y + top, width: width, height: height - top))
    }

    /// Splits off the bottom `rows` rows; returns (rest, bottom).
    package func splitBottom(_ rows: Int) -> (Rect, Rect) {
        let (rest, bottom) = splitTop(height - min(max(rows, 0), height))
        return (rest, bottom)
    }

    /// Splits off the left `columns` columns; returns (left, rest).
    package func splitLeft(_ columns: Int) -> (Rect, Rect) {
        let left = min(max(columns, 0), width)
        return (Rect(x: x, y: y, width: left, height: height), Rect(x: x + left, y: y, width: width - left, height: height))
    }
}
