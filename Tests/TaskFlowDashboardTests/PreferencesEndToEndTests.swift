import Foundation
import Testing

/// The preferences as a user meets them: a theme picked with `t` is there at the next start,
/// a broken config file stops the start with its place, and one that cannot be written never
/// stops the dashboard.
@Suite(
    "End to end: remembered preferences", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct PreferencesEndToEndTests {
    @Test func theThemePickedWithTIsTheNextStartsTheme() async throws {
        let configHome = Tmux.freshConfigHome()
        defer { try? FileManager.default.removeItem(atPath: configHome) }
        let first = try Tmux("prefs-pick", environment: Self.environment(configHome))
        defer { first.close() }
        try await first.waitFor("the dashboard") { $0.contains("Import books") }
        try first.send("t")
        try await first.waitFor("the next theme") { $0.contains("theme: high-contrast") }
        try first.send("q", "q")
        try await first.expectExit(status: 0)
        let file = configHome + "/taskflow/config.toml"
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.contains("theme = 'high-contrast'") || text.contains("theme = \"high-contrast\""), "\(text)")
        let permissions = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(permissions.map { $0 & 0o777 } == 0o600, "the preferences are the owner's only")

        let second = try Tmux("prefs-remembered", environment: Self.environment(configHome))
        defer { second.close() }
        try await second.waitFor("the dashboard") { $0.contains("Import books") }
        try second.send("?")
        try await second.waitFor("the help, naming the theme") { $0.contains("Keys (theme: high-contrast)") }
        try second.send("Escape", "q", "q")
        try await second.expectExit(status: 0)
    }

    @Test func aBrokenConfigFileStopsTheStartWithItsPlace() async throws {
        let folder = Tmux.freshConfigHome()
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/config.toml"
        try "theme = \"light\"\nmouse = \"yes\"\n".write(toFile: file, atomically: true, encoding: .utf8)
        let result = try await TaskflowProcess.run(["demo", "built-in", "--headless", "--config", file])
        #expect(result.status == 2)
        #expect(result.standardError == "\(file):2:9: 'mouse' must be true or false, not a string\n")
    }

    @Test func aConfigThatCannotBeWrittenNeverStopsTheDashboard() async throws {
        // A file where the config's folder should be: the folder cannot be made.
        let blocker = Tmux.freshConfigHome()
        try Data().write(to: URL(fileURLWithPath: blocker))
        defer { try? FileManager.default.removeItem(atPath: blocker) }
        // One quiet flow: the log line saying the preferences are not saved stays in view (the
        // built-in demo's busy start could scroll it away before a late poll saw it).
        let scenario = try Tmux.oneFlowScenario(title: "Import books", step: "Read", duration: "10m")
        defer { try? FileManager.default.removeItem(at: scenario) }
        let tmux = try Tmux("prefs-unwritable", arguments: "run '\(scenario.path)'", environment: Self.environment(blocker))
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Import books") }
        try tmux.send("t")
        try await tmux.waitFor("the theme changed, and the log saying it is not saved") {
            $0.contains("theme: high-contrast") && $0.contains("preferences not saved")
        }
        try tmux.send("t")
        try await tmux.waitFor("the next theme all the same") { $0.contains("theme: light") }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    /// Preferences in `configHome`, and colour whatever the test runner says (`swift test`
    /// may export NO_COLOR, under which the start's theme is monochrome, not default).
    private static func environment(_ configHome: String) -> String {
        "XDG_CONFIG_HOME='\(configHome)' NO_COLOR="
    }
}
