import Glibc

/// A write to a standard descriptor failed.
package struct WriteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the descriptor is called ("standard output").
    package let descriptorName: String
    /// The `errno` value.
    package let code: Int32

    /// A write error on `descriptorName` with `errno` value `code`.
    package init(descriptorName: String, code: Int32) {
        self.descriptorName = descriptorName
        self.code = code
    }

    /// True when nothing reads the pipe any more (EPIPE).
    package var readerIsGone: Bool { code == EPIPE }

    /// `cannot write to standard output: No space left on device`.
    package var description: String {
        "cannot write to \(descriptorName): \(String(cString: strerror(code)))"
    }
}
