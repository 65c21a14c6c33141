import DashboardKit
import Foundation
import TaskFlowStore

/// `taskflow jobs list`'s output, written to standard output a page at a time as the pages are
/// read, so that listing millions of jobs holds one page in memory: a table, or one JSON array.
///
/// The table's columns are as wide as the widest cell seen so far: one page is aligned as a
/// whole, and a later page with a wider id or kind widens the columns from there on (they never
/// narrow), as a stream cannot go back to pad the rows it wrote.
struct JobListWriter {
    /// How the jobs are written.
    enum Format {
        /// ``JobText/tableHeading`` and a row per job; notes say how long ago or how soon
        /// relative to `now`.
        case table(now: Date)
        /// One JSON array of ``JobText/jsonObject(_:)``.
        case json
    }

    private let format: Format
    /// The table's column widths so far; empty until the first row.
    private var widths: [Int] = []
    /// Whether any job was written.
    private var wroteAny = false

    /// A writer of `format`; nothing is written until the first page (or ``finish(notListed:)``).
    init(format: Format) {
        self.format = format
    }

    /// Writes `page`, the next jobs in the listing's order.
    mutating func write(_ page: [StoredJobInfo]) {
        guard !page.isEmpty else { return }
        switch format {
        case .table(let now):
            let rows = (wroteAny ? [] : [JobText.tableHeading]) + page.map { JobText.tableRow($0, now: now) }
            widths = widths.isEmpty ? JobText.widths(of: rows) : zip(widths, JobText.widths(of: rows)).map(max)
            OutputWriter.standardOutput.write(JobText.aligned(rows, widths: widths) + "\n")
        case .json:
            OutputWriter.standardOutput.write((wroteAny ? "," : "[") + page.map(JobText.jsonObject).joined(separator: ","))
        }
        wroteAny = true
    }

    /// Ends the listing — `no jobs` for an empty table, the array's end — and says how many
    /// jobs matched but were not listed, if any: after the table, or on standard error after
    /// JSON, which stays one array.
    func finish(notListed: Int) {
        let more = notListed > 0 ? "… \(notListed.formatted(.number.locale(Locale(identifier: "en_US")))) more (--limit N, --all)\n" : ""
        switch format {
        case .table:
            OutputWriter.standardOutput.write((wroteAny ? "" : "no jobs\n") + more)
        case .json:
            OutputWriter.standardOutput.write((wroteAny ? "" : "[") + "]\n")
            OutputWriter.standardError.write(more)
        }
    }
}
