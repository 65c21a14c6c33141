#if Postgres
import Foundation

/// The machine's CPU time, all cores, from `/proc/stat`: how busy it was between two readings
/// tells whether a benchmark was bound by the CPU (the database server's included).
struct CPUTimes {
    let busy: Double
    let total: Double

    /// Now; zeros where `/proc/stat` cannot be read.
    static func now() -> CPUTimes {
        let text = (try? String(contentsOfFile: "/proc/stat", encoding: .utf8)) ?? ""
        // cpu user nice system idle iowait irq softirq steal …
        let fields = text.split(separator: "\n").first?.split(separator: " ").dropFirst().compactMap { Double($0) } ?? []
        guard fields.count >= 8 else { return CPUTimes(busy: 0, total: 0) }
        let idle = fields[3] + fields[4]
        let total = fields.prefix(8).reduce(0, +)
        return CPUTimes(busy: total - idle, total: total)
    }

    /// The share of CPU time spent busy since `earlier`, 0…1.
    func busyShare(since earlier: CPUTimes) -> Double {
        let total = self.total - earlier.total
        return total > 0 ? (busy - earlier.busy) / total : 0
    }
}
#endif
