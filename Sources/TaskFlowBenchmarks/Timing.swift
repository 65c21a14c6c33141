/// Timing and statistics helpers for the benchmarks: one clock (`ContinuousClock`), durations
/// converted to nanoseconds as `Double`, and percentiles over repeated samples.
///
/// Every figure and its raw baseline go through these same helpers in the same run, so the
/// clock's own cost and resolution affect both sides of each ratio alike.

/// Nanoseconds in a `Duration`, as a `Double` (sub-nanosecond precision is not needed here).
func nanoseconds(_ duration: Duration) -> Double {
    let (seconds, attoseconds) = duration.components
    return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
}

/// How many per second `count` things done in `duration` make.
func perSecond(_ count: Int, _ duration: Duration) -> Double {
    Double(count) / (nanoseconds(duration) / 1e9)
}

/// How long `body` takes, on the continuous clock.
func measure(_ body: () async throws -> Void) async rethrows -> Duration {
    let start = ContinuousClock.now
    try await body()
    return ContinuousClock.now - start
}

/// A set of measurements (in nanoseconds, or any other unit) with order statistics.
struct Samples {
    /// The values, ascending.
    let sorted: [Double]

    init(_ values: [Double]) {
        precondition(!values.isEmpty, "Samples needs at least one value")
        sorted = values.sorted()
    }

    init(_ durations: [Duration]) {
        self.init(durations.map(nanoseconds))
    }

    var count: Int { sorted.count }
    var min: Double { sorted[0] }
    var max: Double { sorted[sorted.count - 1] }
    var median: Double { percentile(50) }

    /// The nearest-rank percentile, `p` in 0...100.
    func percentile(_ p: Double) -> Double {
        let rank = Int((p / 100 * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.min(Swift.max(rank, 0), sorted.count - 1)]
    }
}

/// Runs `body` `runs` times and returns the median of what it returned: one slow run (a page
/// fault, a descheduled thread) then moves the figure much less than a mean would.
func medianOf(_ runs: Int, _ body: () async throws -> Double) async rethrows -> Double {
    var values: [Double] = []
    for _ in 0..<runs { values.append(try await body()) }
    return Samples(values).median
}

// MARK: - Formatting

/// A duration given in nanoseconds, with a unit that keeps 3 significant digits.
func formatNanoseconds(_ ns: Double) -> String {
    switch abs(ns) {
    case ..<1_000: return format(ns, digits: ns < 10 ? 1 : 0) + " ns"
    case ..<1_000_000: return format(ns / 1e3, digits: ns < 10_000 ? 2 : 1) + " µs"
    case ..<1_000_000_000: return format(ns / 1e6, digits: ns < 10_000_000 ? 2 : 1) + " ms"
    default: return format(ns / 1e9, digits: 2) + " s"
    }
}

/// A rate per second with a k/M suffix, 3 significant digits from 1,000 on.
func formatRate(_ perSecond: Double, unit: String) -> String {
    switch perSecond {
    case ..<1e3: return format(perSecond, digits: 0) + " \(unit)/s"
    case ..<1e6: return format(perSecond / 1e3, digits: perSecond < 1e4 ? 2 : perSecond < 1e5 ? 1 : 0) + " k\(unit)/s"
    default: return format(perSecond / 1e6, digits: 2) + " M\(unit)/s"
    }
}

/// A byte count.
func formatBytes(_ bytes: Double) -> String {
    format(bytes, digits: 0) + " B"
}

/// A ratio such as "1.07×".
func formatRatio(_ ratio: Double) -> String {
    format(ratio, digits: ratio < 10 ? 2 : 1) + "×"
}

/// `value` with `digits` decimals, without Foundation.
func format(_ value: Double, digits: Int) -> String {
    guard value.isFinite else { return "—" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = (abs(value) * scale).rounded()
    let whole = Int(scaled / scale)
    let sign = value < 0 && scaled != 0 ? "-" : ""
    guard digits > 0 else { return sign + String(whole) }
    let fraction = String(Int(scaled) - whole * Int(scale))
    return sign + String(whole) + "." + String(repeating: "0", count: digits - fraction.count) + fraction
}
