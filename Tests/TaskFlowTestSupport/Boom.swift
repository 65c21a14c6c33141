/// A failure the tests inject.
public struct Boom: Error, Equatable, CustomStringConvertible {
    /// Tells one injected failure from another.
    public let name: String
    /// A failure called `name`.
    public init(_ name: String = "boom") { self.name = name }
    public var description: String { "Boom(\(name))" }
}
