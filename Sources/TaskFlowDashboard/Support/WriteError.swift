import Glibc

/// A write to a standard descriptor failed.
public struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the descriptor is called ("standard output").
    public let descriptorName: String
    /// The `errno` value.
    public let code: Int32

    /// A write error on `descriptorName` with `errno` value `code`.
    public init(descriptorName: String, code: Int32) {
        self.descriptorName = descriptorName
        self.code = code
    }

    /// True when nothing reads the pipe any more (EPIPE).
    public var readerIsGone: Bool { code == EPIPE }

    /// `cannot write to standard output: No space left on device`.
    public var description: String {
        "cannot write to \(descriptorName): \(String(cString: strerror(code)))"
    }
}
