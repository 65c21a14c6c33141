/// A place in a source file: 1-based line and column (columns count Unicode scalars, so a tab
/// or an emoji is one column, as editors that jump to `file:line:column` count them).
package struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The line, from 1.
    package let line: Int
    /// The column, from 1.
    package let column: Int

    /// Creates a position.
    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// The first character of a file.
    package static let start = SourcePosition(line: 1, column: 1)

    /// Earlier in the file first.
    package static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `line:column`.
    package var description: String { "\(line):\(column)" }
}
