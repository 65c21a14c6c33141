import ArgumentParser

/// Reads the numbers taskflow's command line takes, each within the range its flag allows: the
/// one place a number is checked, where it is parsed, so no value out of range reaches the code
/// that uses it (`--history 9223372036854775807` used to pass, then overflow on the first
/// finished flow). Given as an option's `transform:`, whose error ArgumentParser frames with the
/// flag and the value: `the value '0' is invalid for '--history <n>': out of range, must be
/// from 1 to 1,000,000`.
enum NumberArgument {
    /// A whole number — decimal digits after an optional sign — within `range`.
    static func whole<Number: FixedWidthInteger & Sendable>(in range: ClosedRange<Number>) -> @Sendable (String) throws -> Number {
        { text in
            guard text.wholeMatch(of: /[+-]?[0-9]+/) != nil else { throw ValidationError("not a whole number like 12") }
            // Digits that do not fit the type are out of range as surely as a value that does.
            guard let number = Number(text), range.contains(number) else { throw outOfRange(range) }
            return number
        }
    }

    /// A plain decimal number within `range`. `Double(_:)` alone would also take "0x10" (as 16),
    /// "1e3", "inf" and "nan".
    static func decimal(in range: ClosedRange<Double>) -> @Sendable (String) throws -> Double {
        { text in
            guard text.wholeMatch(of: /[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)/) != nil, let number = Double(text) else {
                throw ValidationError("not a decimal number like 2 or 0.5")
            }
            guard range.contains(number) else { throw outOfRange(range) }
            return number
        }
    }

    /// A job's id (`taskflow jobs show 12`): a store numbers its jobs from 1.
    static var jobID: @Sendable (String) throws -> Int64 { whole(in: 1...Int64.max) }

    /// A durable flow's id (`taskflow flows show 3`): an engine numbers its flows from 1.
    static var flowID: @Sendable (String) throws -> Int { whole(in: 1...Int.max) }

    /// `1 to 1,000,000`, the way help texts say a range.
    static func describe<Number: Comparable & CustomStringConvertible>(_ range: ClosedRange<Number>) -> String {
        "\(grouped(range.lowerBound)) to \(grouped(range.upperBound))"
    }

    private static func outOfRange<Number: Comparable & CustomStringConvertible>(_ range: ClosedRange<Number>) -> ValidationError {
        ValidationError("out of range, must be from \(describe(range))")
    }

    /// `1,000,000` for 1000000, `1,000` for 1000.0 and `0.01` for 0.01: digits grouped by three
    /// in the whole part, no `.0` on a whole number.
    private static func grouped(_ number: some CustomStringConvertible) -> String {
        var text = number.description
        if text.hasSuffix(".0") { text.removeLast(2) }
        let sign = text.hasPrefix("-") ? "-" : ""
        let unsigned = text.dropFirst(sign.count)
        let whole = unsigned.prefix { $0 != "." }
        var digits = ""
        for (index, digit) in whole.enumerated() {
            if index > 0, (whole.count - index) % 3 == 0 { digits.append(",") }
            digits.append(digit)
        }
        return sign + digits + unsigned.dropFirst(whole.count)
    }
}
