import Foundation

/// One value of a stored row as the database holds it, before it is taken for a job's field.
///
/// A store file is input: SQLite's type affinity lets any value into any column (a `retries`
/// of `'abc'`, a `kind` that is a BLOB), and another program or a hand edit may have put it
/// there. Backends hand rows over as these values and ``JobRowDecoding`` decides, in one place
/// for every backend, whether they make a job; PostgreSQL's typed columns simply never produce
/// some of the cases.
package enum StoredValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob(Data)

    /// The value as a reason names it: `'abc'`, `-1`, `1e+300`, `a BLOB of 2 bytes (ff fe)`,
    /// `NULL`; long text is cut, so that a reason stays one short line.
    package var described: String {
        switch self {
        case .null: return "NULL"
        case .integer(let value): return String(value)
        case .real(let value): return "\(value)"
        case .text(let text): return "'\(text.count > 40 ? text.prefix(40) + "…" : text)'"
        case .blob(let data):
            let bytes = data.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            return "a BLOB of \(data.count) byte\(data.count == 1 ? "" : "s")" + (data.isEmpty ? "" : " (\(bytes)\(data.count > 8 ? " …" : ""))")
        }
    }
}
