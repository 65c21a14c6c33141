@testable import DashboardKit
import Foundation
import Testing

/// Snapshot comparison of cell grids as text. Set `SNAPSHOT_DIR` to write the actual grids
/// there (to review a change and paste it in).
enum Snapshot {
    static func assertText(_ actual: String, _ expected: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        if let directory = ProcessInfo.processInfo.environment["SNAPSHOT_DIR"] {
            _ = FileManager.default.createFile(atPath: "\(directory)/\(name).txt", contents: Data(actual.utf8))
        }
        #expect(actual == expected, "snapshot \(name) differs", sourceLocation: sourceLocation)
    }

    /// One letter per cell for the attributes a theme gives its role: `R`everse, `B`old,
    /// `U`nderline, `D`im, `.` plain (first that applies, in that order).
    static func attributes(of grid: CellGrid, theme: Theme) -> String {
        grid.rows.map { row in
            String(row.map { cell -> Character in
                let style = theme.style(for: cell.role)
                if style.reverse { return "R" }
                if style.bold { return "B" }
                if style.underline { return "U" }
                if style.dim { return "D" }
                return "."
            })
        }.joined(separator: "\n")
    }
}
