import TaskFlowSupport

/// A registry of the services an application shares (after AppTasks' `ServiceLocator`): each is
/// registered as a recipe, built the first time someone asks for it, then shared.
///
/// ```swift
/// ServiceLocator.shared.register { Theme.load() }   // nothing is built yet
/// let theme: Theme = try ServiceLocator.shared.resolve()
/// struct Panel { @Inject var theme: Theme }         // resolves from .shared on access
/// ```
///
/// Services are looked up by their type. Thread-safe: a service is built exactly once even when
/// many tasks ask for it first at the same time (the others wait for that one build). A recipe
/// may resolve other services; one that needs itself, directly or not, is a wiring bug and
/// stops the program naming the loop (checked per task, so two threads each building one half of
/// such a loop would wait for each other instead).
///
/// Tests should make their own `ServiceLocator()` and pass it to `@Inject(from:)`, so they never
/// share ``shared``'s registrations with each other.
public final class ServiceLocator: Sendable {
    /// The application's locator, the one `@Inject` uses by default.
    public static let shared = ServiceLocator()

    private let entries = Protected<[ObjectIdentifier: ServiceEntry]>([:])

    /// The services a recipe on this task is building right now, outermost first: how a
    /// recipe that needs itself is caught instead of waiting for its own lock forever.
    @TaskLocal private static var building: [ServiceEntry] = []

    /// An empty locator.
    public init() {}

    /// Registers how to build the service of type `Service` (inferred from `build`), replacing
    /// any earlier registration of that type. `build` runs at most once, on first use.
    public func register<Service: Sendable>(_ build: @escaping @Sendable () -> Service) {
        let entry = ServiceEntry(typeName: String(reflecting: Service.self), build: build)
        entries.withLock { $0[ObjectIdentifier(Service.self)] = entry }
    }

    /// The service of type `Service`, built now if this is its first use.
    ///
    /// - Throws: ``ServiceLocatorError/notRegistered(type:registered:)`` naming the type and
    ///   what is registered.
    public func resolve<Service: Sendable>(_ type: Service.Type = Service.self) throws(ServiceLocatorError) -> Service {
        guard let entry = entries.withLock({ $0[ObjectIdentifier(Service.self)] }) else {
            throw .notRegistered(type: String(reflecting: Service.self), registered: registeredTypes)
        }
        let instance = buildOnce(entry)
        guard let service = instance as? Service else {
            // Entries are keyed by the type their recipe returns, so this cannot happen.
            preconditionFailure("service locator: \(entry.typeName) was built as \(Swift.type(of: instance))")
        }
        return service
    }

    /// Whether a service of type `Service` is registered.
    public func isRegistered<Service>(_ type: Service.Type) -> Bool {
        entries.withLock { $0[ObjectIdentifier(type)] != nil }
    }

    /// The registered types' names, sorted: what a missing-service message lists.
    public var registeredTypes: [String] {
        entries.withLock { $0.values.map(\.typeName) }.sorted()
    }

    private func buildOnce(_ entry: ServiceEntry) -> any Sendable {
        let building = Self.building
        if building.contains(where: { $0 === entry }) {
            let loop = (building.drop { $0 !== entry } + [entry]).map(\.typeName)
            preconditionFailure("service locator: \(loop.joined(separator: " → ")) needs itself to be built")
        }
        return Self.$building.withValue(building + [entry]) { entry.instance() }
    }
}
