/// Why a ``ServiceLocator`` could not hand out a service.
public enum ServiceLocatorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Nothing is registered for `type`; `registered` lists the types that are, sorted.
    case notRegistered(type: String, registered: [String])

    /// One line naming the missing type and what is registered instead.
    public var description: String {
        switch self {
        case let .notRegistered(type, registered):
            let known = registered.isEmpty ? "nothing is registered" : "registered: " + registered.joined(separator: ", ")
            return "no service of type \(type) is registered with the service locator (\(known))"
        }
    }
}
