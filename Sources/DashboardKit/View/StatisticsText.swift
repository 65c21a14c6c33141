/// The lines that show a ``DurationHistogram`` in a pane, shared by the flow, job and lock panes
/// so the same numbers read the same way everywhere.
enum StatisticsText {
    /// `runs 12  p50 120ms  p90 310ms  p99 1.2s` for `label` "runs" and the given percentiles;
    /// nil when nothing was recorded (a pane shows nothing rather than a row of zeros).
    static func summary(_ label: String, _ histogram: DurationHistogram?, percentiles: [Int] = [50, 90, 99]) -> String? {
        guard let histogram, histogram.count > 0 else { return nil }
        let values = percentiles.map { "p\($0) \(histogram.percentile(Double($0)).delayText)" }
        return (["\(label) \(histogram.count)"] + values).joined(separator: "  ")
    }

    /// `120ms ▁▃█▅▂▁ 1.2s`: the runs spread from the shortest to the longest, as a sparkline of
    /// at most 24 slices and `width` columns in all; nil when nothing was recorded or fewer than
    /// four slices would fit.
    static func spread(_ histogram: DurationHistogram?, width: Int, glyphs: Glyphs) -> String? {
        guard let histogram, let range = histogram.range else { return nil }
        let low = range.lowerBound.delayText, high = range.upperBound.delayText
        let slices = min(width - low.count - high.count - 2, 24)
        guard slices >= 4 else { return nil }
        // Runs that all took the same time have nothing to spread: one column says so.
        let counts = range.lowerBound == range.upperBound ? [histogram.count] : histogram.distribution(buckets: slices)
        return "\(low) \(Sparkline.render(counts, glyphs: glyphs)) \(high)"
    }

    /// The detail lines of a job's past runs, as the queued and the stored jobs' detail panes
    /// show them: `past       runs 3  p50 …` and `spread     …`; none before a run ended.
    static func pastRunLines(_ histogram: DurationHistogram?, glyphs: Glyphs) -> [String] {
        [
            summary("runs", histogram).map { "past       " + $0 },
            spread(histogram, width: 40, glyphs: glyphs).map { "spread     " + $0 },
        ].compactMap { $0 }
    }
}
