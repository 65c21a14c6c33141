import Foundation

/// A stored row's values by column name, read into fields with their bounds checked: each read
/// either gives a value that every later use can take without trapping (a count that can be
/// incremented, a time that `Date`, `Duration` and a formatter all accept) or throws
/// ``RowDamage`` naming the column, the value and what it should have been.
package struct StoredRow: Sendable {
    private let values: [String: StoredValue]

    /// The latest time a stored row may hold: the end of year 9999. A `Date` goes further, but
    /// formatting it, or the `Duration` until it, would not.
    package static let latestTime: Double = 253_402_300_799

    /// The columns and their values.
    package init(_ columns: [(String, StoredValue)]) {
        values = Dictionary(columns, uniquingKeysWith: { first, _ in first })
    }

    /// The raw value of `column` (NULL if the row has no such column).
    package func value(_ column: String) -> StoredValue { values[column] ?? .null }

    /// Text; anything else (a BLOB, a number, NULL) is damage.
    package func text(_ column: String) throws(RowDamage) -> String {
        guard case .text(let text) = value(column) else { throw damage(column, "not text") }
        return text
    }

    /// Text or NULL.
    package func optionalText(_ column: String) throws(RowDamage) -> String? {
        if case .null = value(column) { return nil }
        return try text(column)
    }

    /// The bytes of a BLOB or of text (JSON is text either way).
    package func bytes(_ column: String) throws(RowDamage) -> Data {
        switch value(column) {
        case .blob(let data): return data
        case .text(let text): return Data(text.utf8)
        default: throw damage(column, "not bytes")
        }
    }

    /// A whole number in `range`; `what` says what it counts ("a count", "a process id").
    package func integer(_ column: String, in range: ClosedRange<Int64>, _ what: String) throws(RowDamage) -> Int64 {
        let expected = "\(what) from \(range.lowerBound) to \(range.upperBound)"
        guard case .integer(let number) = value(column) else { throw damage(column, "not \(expected)") }
        guard range.contains(number) else { throw damage(column, "out of range: \(expected)") }
        return number
    }

    /// 0 or 1, as SQLite stores booleans.
    package func flag(_ column: String) throws(RowDamage) -> Bool {
        try integer(column, in: 0...1, "a flag") == 1
    }

    /// A number of seconds in `range` (an integer or a real).
    package func seconds(_ column: String, in range: ClosedRange<Double>, _ what: String) throws(RowDamage) -> Double {
        let number: Double
        switch value(column) {
        case .real(let real): number = real
        case .integer(let integer): number = Double(integer)
        default: throw damage(column, "not \(what)")
        }
        guard range.contains(number) else { throw damage(column, "out of range: \(what) from \(range.lowerBound) to \(range.upperBound)") }
        return number
    }

    /// A time, stored as seconds since 1970, between 1970 and the end of year 9999.
    package func time(_ column: String) throws(RowDamage) -> Date {
        Date(timeIntervalSince1970: try seconds(column, in: 0...Self.latestTime, "a time (seconds since 1970)"))
    }

    /// A time or NULL.
    package func optionalTime(_ column: String) throws(RowDamage) -> Date? {
        if case .null = value(column) { return nil }
        return try time(column)
    }

    /// `column is VALUE, EXPECTATION`.
    private func damage(_ column: String, _ expectation: String) -> RowDamage {
        RowDamage(reason: "\(column) is \(value(column).described), \(expectation)")
    }
}

/// Why a stored row is not a job or a worker process: one line naming the column, the value
/// and what it should have been (`retries is 'abc', not a count from 0 to 2147483647`).
package struct RowDamage: Error, Sendable, Hashable {
    package let reason: String
}
