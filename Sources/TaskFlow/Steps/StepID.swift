/// A step's identity within its flow, assigned in the order steps start.
public struct StepID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Numbered from 1 as steps start; the children of a group in the order the group lists them.
    public let rawValue: Int

    /// Wraps a start number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Earlier-started steps order first.
    public static func < (lhs: StepID, rhs: StepID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "step <number>".
    public var description: String { "step \(rawValue)" }
}
