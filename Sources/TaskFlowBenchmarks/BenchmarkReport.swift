import Foundation
import Synchronization

/// Every table a run printed, kept so that `--json FILE` can write them at the end with the
/// machine they were measured on: what `Scripts/benchmark-report.py` turns into the README's
/// tables and what `.ci/run`'s guard reads.
enum BenchmarkReport {
    private static let tables = Mutex<[ResultTable]>([])

    /// Prints `table` and keeps it for the report.
    static func publish(_ table: ResultTable) {
        print(table.render())
        tables.withLock { $0.append(table) }
    }

    /// Writes every table published so far to `path` as JSON: `machine` (CPU, cores, kernel,
    /// Swift, date, build) and `tables`, each with its rows' texts and, where a row has them,
    /// its ratio and the ratio its target allows.
    static func write(to path: String) throws {
        let document: [String: Any] = [
            "machine": machine(),
            "tables": tables.withLock { $0 }.map { table in
                ["title": table.title, "rows": table.rows.map(json)]
            },
        ]
        let data = try JSONSerialization.data(withJSONObject: document, options: [.prettyPrinted, .sortedKeys])
        try data.write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    private static func json(_ row: ResultTable.Row) -> [String: Any] {
        var object: [String: Any] = [
            "figure": row.figure, "taskflow": row.taskFlow, "baseline": row.baseline, "ratio": row.ratio,
            "target": row.target, "met": row.verdict.rawValue,
        ]
        if let ratio = row.ratioValue { object["ratioValue"] = ratio }
        if let limit = row.ratioLimit { object["ratioLimit"] = ["atMost": limit.atMost, "value": limit.value] }
        return object
    }

    /// What the figures were measured on: they only compare with figures of the same machine.
    private static func machine() -> [String: Any] {
        let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let model = cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
            .map { $0.split(separator: ":", maxSplits: 1).last.map { $0.trimmingCharacters(in: .whitespaces) } ?? "" }
        var system = utsname()
        uname(&system)
        let kernel = withUnsafeBytes(of: &system.release) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return [
            "cpu": model ?? "unknown", "cores": ProcessInfo.processInfo.activeProcessorCount, "kernel": kernel,
            "swift": swiftVersion(), "date": ISO8601DateFormatter().string(from: Date()), "build": buildConfiguration,
        ]
    }

    /// `swift --version`'s first line, or "unknown" where no toolchain is on the PATH.
    private static func swiftVersion() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "--version"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "unknown" }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let first = String(decoding: data, as: UTF8.self).split(separator: "\n").first.map(String.init)
        return process.terminationStatus == 0 ? first ?? "unknown" : "unknown"
    }
}
