/// A part of an application that knows its own start-up (after AppTasks' `ServiceProvider`): the
/// services it offers and the boot tasks that prepare them.
///
/// ```swift
/// struct StoreServices: ServiceProvider {
///     let store = StoreBox()
///     func registerServices(in locator: ServiceLocator) { locator.register { store } }
///     func addTasks(to boot: Boot<AppEvent>) {
///         boot.task("Open store") { try await store.open() }
///         boot.task("Recover jobs", after: ["Open store"]) { try await store.recover() }
///     }
/// }
/// let boot = Boot(title: "Start", providers: [StoreServices(), UIServices()])
/// ```
///
/// Providers may name each other's tasks in `after:`; the boot validates the whole graph.
public protocol ServiceProvider<Event>: Sendable {
    /// The application events the boot buffers and its observers receive.
    associatedtype Event: Sendable

    /// Registers this provider's services. Registration is cheap: each service is built on
    /// first use, so this may run before any boot task.
    func registerServices(in locator: ServiceLocator)

    /// Adds this provider's tasks and observers to `boot`.
    func addTasks(to boot: Boot<Event>)
}

extension ServiceProvider {
    /// No services: a provider that only adds tasks.
    public func registerServices(in locator: ServiceLocator) {}
}

extension Boot {
    /// A boot made of `providers`, in order: each registers its services in `locator`, then
    /// adds its tasks. `run()` it as any boot.
    public convenience init(title: String, providers: [any ServiceProvider<Event>], locator: ServiceLocator = .shared) {
        self.init(title: title)
        for provider in providers { add(provider, locator: locator) }
    }

    /// Adds `provider`: its services to `locator`, its tasks to this boot. Before `run()` only.
    public func add(_ provider: some ServiceProvider<Event>, locator: ServiceLocator = .shared) {
        provider.registerServices(in: locator)
        provider.addTasks(to: self)
    }
}
