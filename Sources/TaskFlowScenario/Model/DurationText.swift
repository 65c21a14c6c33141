/// Durations as scenario files write them: a non-negative number and a unit, `"300ms"`,
/// `"1.5s"` or `"2m"`.
public enum DurationText {
    private static let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60)]

    /// The duration `text` denotes, or nil if it is not a number followed by `ms`, `s` or `m`.
    public static func parse(_ text: String) -> Duration? {
        // "ms" is tried before "s" and "m" so "300ms" is not read as "300m" + "s".
        for unit in units where text.hasSuffix(unit.suffix) {
            let number = text.dropLast(unit.suffix.count)
            guard isPlainDecimal(number), let value = Double(number) else { return nil }
            return .milliseconds(value * unit.seconds * 1000)
        }
        return nil
    }

    /// `duration` written back the way a file would: "250ms", "1.5s", "2m".
    public static func format(_ duration: Duration) -> String {
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

    private static func trimmed(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
