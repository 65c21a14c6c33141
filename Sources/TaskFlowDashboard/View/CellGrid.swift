/// One character cell of the screen: what it shows and what it means.
public struct Cell: Sendable, Hashable {
    /// The character (always one column wide).
    public var scalar: Unicode.Scalar
    /// Its style role.
    public var role: StyleRole

    /// A blank cell.
    public static let blank = Cell(scalar: " ", role: .normal)
}

/// A screen's worth of cells, written by widgets and copied to a terminal by a backend.
/// Writes outside the grid are clipped, so widgets never need to check bounds.
public struct CellGrid: Sendable, Hashable {
    /// The size in cells.
    public let size: GridSize
    /// The cells, row after row.
    public private(set) var cells: [Cell]

    /// A blank grid.
    public init(size: GridSize) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
    }

    /// The cell at column `x`, row `y`.
    public subscript(x: Int, y: Int) -> Cell {
        cells[y * size.width + x]
    }

    /// Writes `text` from (`x`, `y`), at most `limit` cells (default: to the right edge).
    /// Returns the number of cells written.
    @discardableResult
    public mutating func put(_ text: String, x: Int, y: Int, role: StyleRole, limit: Int = .max) -> Int {
        guard y >= 0, y < size.height else { return 0 }
        var column = x
        let end = x + min(max(limit, 0), size.width - x)
        for scalar in text.unicodeScalars where column < end {
            // Control characters would move the terminal's cursor: show them as spaces.
            let shown = scalar.properties.generalCategory == .control ? " " : scalar
            if column >= 0 { cells[y * size.width + column] = Cell(scalar: shown, role: role) }
            column += 1
        }
        return max(column - x, 0)
    }

    /// Fills a rectangle with one character.
    public mutating func fill(_ rect: Rect, with scalar: Unicode.Scalar = " ", role: StyleRole) {
        let clipped = rect.intersection(Rect(x: 0, y: 0, width: size.width, height: size.height))
        for y in clipped.rows {
            for x in clipped.columns { cells[y * size.width + x] = Cell(scalar: scalar, role: role) }
        }
    }

    /// Changes the role of a rectangle's cells, keeping their characters (selection highlight).
    public mutating func restyle(_ rect: Rect, role: StyleRole) {
        let clipped = rect.intersection(Rect(x: 0, y: 0, width: size.width, height: size.height))
        for y in clipped.rows {
            for x in clipped.columns { cells[y * size.width + x].role = role }
        }
    }

    /// The characters, one line per row, trailing spaces removed: what snapshot tests compare.
    public var text: String {
        rows.map { row in
            let line = String(String.UnicodeScalarView(row.map(\.scalar)))
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    /// The cells row by row.
    public var rows: [ArraySlice<Cell>] {
        (0..<size.height).map { y in cells[(y * size.width)..<((y + 1) * size.width)] }
    }
}

/// A size in cells.
public struct GridSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    public let width: Int
    /// Rows.
    public let height: Int

    /// A size; negative values count as zero.
    public init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    public var description: String { "\(width)×\(height)" }
}
