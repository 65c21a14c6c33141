/// An error that happened in the watched program, as it travels: its description. A client
/// rebuilds a failed flow's status with it, so the status reads exactly as it did there.
package struct RemoteError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The error's description in the program.
    package let description: String

    /// An error described by `description`.
    package init(_ description: String) { self.description = description }
}
