import TOMLSource

/// One column of the screen: what it shows and what it means.
///
/// A wide character (CJK, most emoji) takes two columns: its cell has ``width`` 2 and the
/// cell to its right is a *continuation* (``width`` 0), which backends skip because the
/// terminal fills that column itself.
package struct Cell: Sendable, Hashable {
    /// The character's first scalar (a space in a continuation cell).
    package var scalar: Unicode.Scalar
    /// Zero-width scalars drawn over ``scalar`` (combining accents, variation selectors), in
    /// order; a backend writes them right after ``scalar``.
    package var marks: [Unicode.Scalar]
    /// Its style role.
    package var role: StyleRole
    /// Columns the terminal gives it: 1, 2 for a wide character, 0 for a continuation cell.
    package var width: Int

    /// A cell showing `scalar` followed by `marks`.
    package init(scalar: Unicode.Scalar, marks: [Unicode.Scalar] = [], role: StyleRole, width: Int = 1) {
        self.scalar = scalar
        self.marks = marks
        self.role = role
        self.width = width
    }

    /// A blank cell.
    package static let blank = Cell(scalar: " ", role: .normal)

    /// True for the right half of a wide character: backends draw nothing here.
    package var isContinuation: Bool { width == 0 }

    /// What a backend writes for this cell, in order: nothing for a continuation cell.
    package var drawnScalars: [Unicode.Scalar] { isContinuation ? [] : [scalar] + marks }

    /// The cell for one grapheme, which holds no control or format character (``CellGrid/put(_:x:y:role:limit:)``
    /// writes those as escapes). Only the zero-width scalars after the first are kept as marks:
    /// a terminal gives every other scalar columns of its own (an emoji joined by U+200D would
    /// take several cells), so they, and the joiner, are dropped.
    init(_ character: Character, role: StyleRole) {
        let scalars = character.unicodeScalars
        // A Character holds at least one scalar.
        let first = scalars[scalars.startIndex]
        let marks = Array(scalars.dropFirst()).filter { $0 != Self.joiner && DisplayWidth.columns(of: $0) == 0 }
        self.init(scalar: first, marks: marks, role: role, width: DisplayWidth.columns(of: first))
    }

    /// U+200D ZERO WIDTH JOINER, which would make a terminal join the next cell's character.
    fileprivate static let joiner: Unicode.Scalar = "\u{200D}"

    /// The right half of this wide cell.
    fileprivate var continuation: Cell { Cell(scalar: " ", role: role, width: 0) }
}

/// A screen's worth of cells, written by widgets and copied to a terminal by a backend.
/// Writes outside the grid are clipped, so widgets never need to check bounds; a write that
/// covers half of a wide character blanks its other half, so no half-character is left.
package struct CellGrid: Sendable, Hashable {
    /// The size in cells.
    package let size: GridSize
    /// The cells, row after row.
    package private(set) var cells: [Cell]
    /// Where the widgets drew their panes and clickable things, for the mouse; a backend
    /// paints only the cells.
    package var hitMap = HitMap()

    /// A blank grid.
    package init(size: GridSize) {
        self.size = size
        cells = Array(repeating: .blank, count: size.width * size.height)
    }

    /// The cell at column `x`, row `y`.
    package subscript(x: Int, y: Int) -> Cell {
        cells[y * size.width + x]
    }

    /// Writes `text` from (`x`, `y`) into at most `limit` columns, and never past the right
    /// edge. A wide character that would not fit whole is left out; zero-width characters join
    /// the cell before them. Characters that would act on the terminal or disguise the text
    /// (controls, bidi overrides and isolates, invisible format characters: a title must not
    /// read `exe.jpg`) are written as the escapes every other output shows, `\u{202E}`, which
    /// ``Swift/String/displayWidth`` counts. Returns the number of columns written.
    @discardableResult
    package mutating func put(_ text: String, x: Int, y: Int, role: StyleRole, limit: Int) -> Int {
        guard y >= 0, y < size.height, x < size.width else { return 0 }
        let end = x + min(max(limit, 0), size.width - x)
        var column = x
        // Every string a widget draws comes through here, whatever flow, job or log line it came
        // from; escaping is idempotent, so text escaped before (job details) is unchanged.
        for character in text.escapingControlCharacters {
            let cell = Cell(character, role: role)
            if cell.width == 0 {
                // A zero-width character has no column of its own: its scalars are all marks.
                attachMarks([cell.scalar] + cell.marks, before: column, from: x, y: y)
                continue
            }
            guard column + cell.width <= end else { break }
            if column >= 0 { set(cell, x: column, y: y) }
            column += cell.width
        }
        return max(column - x, 0)
    }

    /// Fills a rectangle with one character.
    package mutating func fill(_ rect: Rect, with scalar: Unicode.Scalar = " ", role: StyleRole) {
        let clipped = rect.intersection(bounds)
        for y in clipped.rows {
            for x in clipped.columns { set(Cell(scalar: scalar, role: role), x: x, y: y) }
        }
    }

    /// Changes the role of a rectangle's cells, keeping their characters (selection highlight).
    /// Both halves of a wide character take the role, so a backend's runs of one role never
    /// split one.
    package mutating func restyle(_ rect: Rect, role: StyleRole) {
        let clipped = rect.intersection(bounds)
        for y in clipped.rows {
            for x in clipped.columns {
                let index = y * size.width + x
                cells[index].role = role
                if cells[index].isContinuation, x > 0 { cells[index - 1].role = role }
                if cells[index].width == 2, x + 1 < size.width { cells[index + 1].role = role }
            }
        }
    }

    /// The characters, one line per row, trailing spaces removed: what snapshot tests compare.
    /// A wide character appears once, as on the terminal.
    package var text: String {
        rows.map { row in
            let line = String(String.UnicodeScalarView(row.flatMap(\.drawnScalars)))
            return String(line.reversed().drop { $0 == " " }.reversed())
        }.joined(separator: "\n")
    }

    /// The cells row by row.
    package var rows: [ArraySlice<Cell>] {
        (0..<size.height).map { y in cells[(y * size.width)..<((y + 1) * size.width)] }
    }

    private var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// Stores one cell (and the continuation of a wide one) at a column inside the grid.
    private mutating func set(_ cell: Cell, x: Int, y: Int) {
        blankOtherHalf(x: x, y: y)
        cells[y * size.width + x] = cell
        guard cell.width == 2 else { return }
        blankOtherHalf(x: x + 1, y: y)
        cells[y * size.width + x + 1] = cell.continuation
    }

    /// Before (x, y) is overwritten: if it holds half of a wide character, the other half
    /// becomes a blank of the same role, since a terminal cannot show half a character.
    private mutating func blankOtherHalf(x: Int, y: Int) {
        let index = y * size.width + x
        let cell = cells[index]
        if cell.isContinuation, x > 0 {
            cells[index - 1] = Cell(scalar: " ", role: cells[index - 1].role)
        } else if cell.width == 2, x + 1 < size.width {
            cells[index + 1] = Cell(scalar: " ", role: cells[index + 1].role)
        }
    }

    /// Adds zero-width scalars to the character left of `column`, if this write put it there
    /// (a mark never lands on a neighbour's text).
    private mutating func attachMarks(_ marks: [Unicode.Scalar], before column: Int, from start: Int, y: Int) {
        guard column > max(start, 0) else { return }
        var index = y * size.width + column - 1
        if cells[index].isContinuation { index -= 1 }
        cells[index].marks += marks.filter { $0 != Cell.joiner }
    }
}

/// A size in cells.
package struct GridSize: Sendable, Hashable, CustomStringConvertible {
    /// Columns.
    package let width: Int
    /// Rows.
    package let height: Int

    /// A size; negative values count as zero.
    package init(width: Int, height: Int) {
        self.width = max(width, 0)
        self.height = max(height, 0)
    }

    package var description: String { "\(width)×\(height)" }
}
