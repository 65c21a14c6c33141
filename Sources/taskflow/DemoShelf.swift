import DashboardKit
import Foundation
import TaskFlowScenario

/// One demo `taskflow demo` can play, whatever it is made of.
struct ShelvedDemo: Sendable {
    /// What `taskflow demo NAME` takes.
    let name: String
    /// One line saying what it shows (loading a scenario file may fail: status 2).
    let summary: @Sendable () throws -> String
    /// A fresh source of its flows, at the speed and seed of `display`. Run by the start-up,
    /// so it throws what went wrong (a scenario's diagnostics) rather than printing it.
    let source: @Sendable (DisplayOptions) throws -> any FlowSource
}

/// Every demo: the scenario files of the demo folder (see ``DemoCatalog``), then the one
/// compiled into taskflow. The command lists and plays them alike, so it has no special cases;
/// the rules about where demos come from live here.
enum DemoShelf {
    /// The demo compiled into the executable: needs no files.
    static let builtInName = "built-in"

    /// The demos, the default one first and the built-in one last.
    static func demos() throws -> [ShelvedDemo] {
        let files = try DemoCatalog.demoFolder().map { folder in try DemoCatalog.demos(in: folder) } ?? []
        return files.map(scenarioDemo) + [outbox, durableCopy, builtIn]
    }

    /// The demo called `name`. Without a demo folder the default demo is the built-in one.
    static func demo(named name: String) throws -> ShelvedDemo {
        let hasFolder = DemoCatalog.demoFolder() != nil
        if !hasFolder, name == DemoCatalog.defaultDemo { return builtIn }
        if name == "outbox" { return outbox }
        if name == "durable-copy" { return durableCopy }
        let all = try demos()
        if let demo = all.first(where: { $0.name == name }) { return demo }
        guard hasFolder else {
            throw failure("no demo folder found (looked for demo/\(DemoCatalog.defaultDemo).toml above the executable and the current directory); try: taskflow demo \(builtInName)")
        }
        throw failure("no demo named '\(name)'; the demos are: \(all.map(\.name).joined(separator: ", "))")
    }

    private static var builtIn: ShelvedDemo {
        ShelvedDemo(
            name: builtInName, summary: { "the demo compiled into taskflow: no files needed" },
            // Its flows fail by design, not by chance: --seed has nothing to act on.
            source: { display in BuiltInDemo(pace: 1 / display.speed) })
    }

    /// The durable job store demo: needs no files but the store it creates.
    private static var outbox: ShelvedDemo {
        ShelvedDemo(
            name: "outbox",
            summary: { "E-mails on a durable job store: retries, a network to switch (n), recovery after a crash." },
            source: { display in
                let path = display.storePath ?? StoreOptions.stateDirectory + "/outbox.sqlite"
                return try OutboxDemo(path: path, pace: 1 / display.speed)
            })
    }

    /// The durable flows demo: needs no files but the store and the folder it creates.
    private static var durableCopy: ShelvedDemo {
        ShelvedDemo(
            name: "durable-copy",
            summary: { "Durable flows copying albums: cancel (c), or kill -9 and restart; an album is copied whole or not at all." },
            source: { display in
                let path = display.storePath ?? StoreOptions.stateDirectory + "/durable-copy.sqlite"
                return try DurableCopyDemo(path: path, pace: 1 / display.speed)
            })
    }

    private static func scenarioDemo(_ demo: Demo) -> ShelvedDemo {
        ShelvedDemo(
            name: demo.name,
            summary: {
                let scenario = try demo.load()
                return scenario.description.split(separator: "\n").first.map(String.init) ?? scenario.name
            },
            source: { display in ScenarioFeed(try demo.load(), options: display.runOptions) })
    }
}
