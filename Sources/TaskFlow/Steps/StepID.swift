/// A step's identity within its flow, assigned in the order steps start.
public struct StepID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The start number, from 1.
    public let rawValue: Int

    /// Wraps a start number.
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Earlier-started steps order first.
    public static func < (lhs: StepID, rhs: StepID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// "step <number>".
    public var description: String { "step \(rawValue)" }
}
