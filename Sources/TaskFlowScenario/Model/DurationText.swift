/// Durations as scenario files write them: a non-negative number and a unit, `"300ms"`,
/// `"1.5s"` or `"2m"`, at most ``longest``.
package enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]

    /// The longest duration a file may write, 24 hours: far beyond any demo, and small enough
    /// that every sum and product a run or a summary makes of durations stays exact and in
    /// range. (`Duration` traps on overflow, and a value read from a file could be any size.)
    package static let longest: Duration = .seconds(24 * 60 * 60)

    /// What a duration's text turned out to be.
    enum Reading: Equatable {
        /// A duration within `.zero...longest`.
        case valid(Duration)
        /// A well-formed duration longer than ``longest``.
        case tooLong
        /// Not a number followed by `ms`, `s` or `m`.
        case malformed
    }

    /// The duration `text` denotes, or nil if it is not a number followed by `ms`, `s` or `m`,
    /// or is longer than ``longest``.
    package static func parse(_ text: String) -> Duration? {
        if case .valid(let duration) = read(text) { duration } else { nil }
    }

    /// Reads `text`, telling a duration that is too long from one that is not a duration, so
    /// validation can say which.
    static func read(_ text: String) -> Reading {
        // "ms" is tried before "s" and "m" so "300ms" is not read as "300m" + "s".
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard isPlainDecimal(number), let value = Double(number) else { return .malformed }
            let seconds = value * unit.seconds
            // Checked as a Double, before a `Duration` exists: a huge (or infinite, for hundreds
            // of digits) value would trap when converted.
            guard seconds <= Double(longest.components.seconds) else { return .tooLong }
            return .valid(.milliseconds(seconds * 1000))
        }
        return .malformed
    }

    /// `duration` written back the way a file would: "250ms", "1.5s", "2m". Never traps, even
    /// for durations no file can write (sums of many steps, scenarios built in code).
    package static func format(_ duration: Duration) -> String {
        let milliseconds = Double(duration.components.seconds) * 1000
            + Double(duration.components.attoseconds) / 1e15
        if milliseconds < 1000 { return "\(trimmed(milliseconds))ms" }
        if milliseconds < 60_000 || milliseconds.truncatingRemainder(dividingBy: 60_000) != 0 {
            return "\(trimmed(milliseconds / 1000))s"
        }
        return "\(trimmed(milliseconds / 60_000))m"
    }

    /// Digits with at most one decimal point: `Double("1e3")`, `"inf"`, `"+2"` or `" 2"` would
    /// parse, but they are not what anyone means by a duration.
    private static func isPlainDecimal(_ text: Substring) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// At most three decimals, none for whole numbers. `Int(exactly:)` rather than `Int(_:)`:
    /// a whole number beyond `Int`'s range keeps its floating-point spelling instead of trapping.
    private static func trimmed(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return Int(exactly: rounded).map(String.init) ?? String(rounded)
    }
}
