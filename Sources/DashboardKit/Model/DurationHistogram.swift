import Histogram

/// Durations in a fixed amount of memory: an HdrHistogram of microseconds from 1 µs to a day,
/// to two significant digits (every value read back is within 1% of one recorded, or of the
/// day it was clamped to). Its size never depends on how many durations it saw (about 16 KiB),
/// which is what lets the dashboard keep one per flow, step and job title for days.
package struct DurationHistogram: Sendable {
    /// The longest duration told apart: anything longer is counted as this (the dashboard's
    /// statistics are about runs a person watches, and a bound keeps the buckets fixed).
    package static let longest = Duration.seconds(86_400)

    private var histogram = Histogram<UInt32>(
        lowestDiscernibleValue: 1, highestTrackableValue: UInt64(86_400) * 1_000_000, numberOfSignificantValueDigits: .two)

    /// An empty histogram.
    package init() {}

    /// How many durations were recorded.
    package var count: Int { Int(clamping: histogram.totalCount) }

    /// Counts one more run of `duration` (a negative one as zero, a longer one than ``longest``
    /// as ``longest``).
    package mutating func record(_ duration: Duration) {
        histogram.record(Self.microseconds(duration))
    }

    /// The duration that `percentile` percent (0...100) of the runs took at most, to the
    /// histogram's precision; zero when nothing was recorded.
    package func percentile(_ percentile: Double) -> Duration {
        guard count > 0 else { return .zero }
        return .microseconds(histogram.valueAtPercentile(percentile))
    }

    /// The shortest and the longest run recorded, to the histogram's precision; nil when empty.
    package var range: ClosedRange<Duration>? {
        guard count > 0 else { return nil }
        let low = Duration.microseconds(histogram.min), high = Duration.microseconds(histogram.maxRecorded)
        return low...max(low, high)
    }

    /// The runs counted in `buckets` equal slices of ``range`` (shortest first), for a one-line
    /// picture of the distribution; every run falls in exactly one slice. Empty when nothing
    /// was recorded or `buckets` is not positive.
    package func distribution(buckets: Int) -> [Int] {
        guard buckets > 0, count > 0 else { return [] }
        let low = histogram.min, high = max(histogram.maxRecorded, histogram.min)
        let span = high - low + 1
        var counts = [Int](repeating: 0, count: buckets)
        // Walking the recorded values (not probing slice boundaries) puts each run in exactly
        // one slice, whatever the histogram's bucket edges are.
        for value in histogram.recordedValues() {
            let clamped = min(max(value.value, low), high)
            let index = Int(min((clamped - low) * UInt64(buckets) / span, UInt64(buckets - 1)))
            counts[index] += Int(value.count)
        }
        return counts
    }

    private static func microseconds(_ duration: Duration) -> UInt64 {
        let clamped = min(max(duration, .zero), longest)
        let (seconds, attoseconds) = clamped.components
        return UInt64(seconds) * 1_000_000 + UInt64(attoseconds / 1_000_000_000_000)
    }
}

extension DurationHistogram: Hashable {
    /// Equal when they hold the same counts in the same buckets.
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.histogram == rhs.histogram
    }

    /// Hashes what equal histograms share: the count and the extremes.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(histogram.totalCount)
        hasher.combine(histogram.min)
        hasher.combine(histogram.maxRecorded)
    }
}
