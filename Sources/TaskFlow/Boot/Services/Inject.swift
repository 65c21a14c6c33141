/// A property that reads its value from a ``ServiceLocator`` (``ServiceLocator/shared`` unless
/// given one), resolved on each access so the owner can be made before the service is
/// registered; the locator builds the service once and then hands out the same instance.
///
/// ```swift
/// struct Panel { @Inject var theme: Theme }
/// struct TestPanel { @Inject(from: locator) var theme: Theme }
/// ```
///
/// A missing registration stops the program with a message naming the type and what is
/// registered (``ServiceLocatorError``). A precondition rather than a throwing accessor because
/// `@Inject` reads like a stored property: every use would need `try`, and there is nothing a
/// caller could do about a service that was never wired in but fix the wiring — a bug the first
/// run shows. Code that must cope with a missing service calls ``ServiceLocator/resolve(_:)``,
/// which throws the same error instead.
@propertyWrapper
public struct Inject<Service: Sendable>: Sendable {
    private let locator: ServiceLocator

    /// Resolves from `locator` (the shared one by default).
    public init(from locator: ServiceLocator = .shared) {
        self.locator = locator
    }

    /// The service, built on first use.
    public var wrappedValue: Service {
        do {
            return try locator.resolve(Service.self)
        } catch {
            preconditionFailure(error.description)
        }
    }
}
