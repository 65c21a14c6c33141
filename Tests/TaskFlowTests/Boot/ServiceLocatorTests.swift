import Testing
import TaskFlow
import TaskFlowTestSupport

/// A service the tests register: a class, so identity shows whether it was shared.
private final class Theme: Sendable {
    let name: String
    init(name: String) { self.name = name }
}

private struct Missing: Sendable {}

private struct Panel {
    @Inject var theme: Theme
    init(locator: ServiceLocator) { _theme = Inject(from: locator) }
}

/// Every test uses its own locator, never `.shared`, so tests running in parallel don't see
/// each other's registrations.
@Suite struct ServiceLocatorTests {
    @Test func aServiceIsBuiltOnFirstUseThenShared() throws {
        let locator = ServiceLocator()
        let builds = Recorder<String>()
        locator.register { builds.record("dark"); return Theme(name: "dark") }
        #expect(builds.all.isEmpty, "registering builds nothing")
        let first: Theme = try locator.resolve()
        let second = try locator.resolve(Theme.self)
        #expect(first === second)
        #expect(builds.all == ["dark"])
    }

    @Test func concurrentFirstUsesBuildOnce() async throws {
        for _ in 0..<20 {
            let locator = ServiceLocator()
            let builds = Recorder<Int>()
            locator.register { builds.record(1); return Theme(name: "dark") }
            let identities = try await withThrowingTaskGroup(of: ObjectIdentifier.self) { group in
                for _ in 0..<16 {
                    group.addTask { ObjectIdentifier(try locator.resolve(Theme.self)) }
                }
                return try await group.reduce(into: Set<ObjectIdentifier>()) { $0.insert($1) }
            }
            #expect(builds.all.count == 1)
            #expect(identities.count == 1)
        }
    }

    @Test func injectResolvesFromTheLocator() {
        let locator = ServiceLocator()
        locator.register { Theme(name: "solarized") }
        let panel = Panel(locator: locator)
        #expect(panel.theme.name == "solarized")
        #expect(panel.theme === Panel(locator: locator).theme)
    }

    @Test func aMissingServiceIsNamedWithWhatIsRegistered() throws {
        let locator = ServiceLocator()
        locator.register { Theme(name: "dark") }
        #expect(!locator.isRegistered(Missing.self))
        let error = try #require(throws: ServiceLocatorError.self) { try locator.resolve(Missing.self) }
        let theme = String(reflecting: Theme.self)
        #expect(error == .notRegistered(type: String(reflecting: Missing.self), registered: [theme]))
        #expect(error.description.contains("Missing"))
        #expect(error.description.contains("registered: \(theme)"))
    }

    @Test func aRecipeMayResolveAnotherService() throws {
        let locator = ServiceLocator()
        locator.register { Theme(name: "dark") }
        locator.register { [locator] in Panel(locator: locator).theme.name.count }
        #expect(try locator.resolve(Int.self) == 4)
    }

    @Test func providersRegisterServicesAndAddTasks() async throws {
        struct StoreServices: ServiceProvider {
            let opened: Recorder<String>
            func registerServices(in locator: ServiceLocator) { locator.register { Theme(name: "store") } }
            func addTasks(to boot: Boot<Int>) {
                boot.task("Open store") { opened.record("Open store") }
            }
        }
        struct UIServices: ServiceProvider {
            let locator: ServiceLocator
            let shown: Recorder<String>
            func addTasks(to boot: Boot<Int>) {
                boot.task("Show UI", after: ["Open store"]) { [locator] in
                    shown.record(try locator.resolve(Theme.self).name)
                }
            }
        }
        let locator = ServiceLocator()
        let log = Recorder<String>()
        let boot = Boot(title: "Start", providers: [StoreServices(opened: log), UIServices(locator: locator, shown: log)],
                        locator: locator)
        try await boot.run()
        #expect(log.all == ["Open store", "store"])
    }
}
