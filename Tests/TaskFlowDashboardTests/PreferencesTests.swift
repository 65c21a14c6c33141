@testable import DashboardKit
import TaskFlowDashboard
import Foundation
import Testing
import TOMLSource

@Suite("Preferences: config.toml")
struct PreferencesTests {
    private let parser = PreferencesParser(sortableViews: ["flows": ["id", "title", "elapsed"], "store": ["id", "kind"]])
    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-prefs-\(UUID().uuidString)").path

    @Test func everySettingReadsBack() throws {
        let source = """
            theme = "light"
            mouse = false
            history = 5000
            [sort]
            flows = { column = "elapsed", order = "descending" }
            store = { column = "kind" }
            """
        let preferences = try parser.parse(source, file: "config.toml")
        #expect(preferences == Preferences(
            theme: "light", mouse: false, history: 5000,
            sorts: ["flows": SavedSort(column: "elapsed", ascending: false), "store": SavedSort(column: "kind", ascending: true)]))
    }

    @Test func whatIsWrittenIsReadBackTheSame() throws {
        let preferences = Preferences(
            theme: "high-contrast", mouse: true, history: 10,
            sorts: ["flows": SavedSort(column: "title", ascending: false)])
        let file = PreferencesFile(path: folder + "/nested/config.toml")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try file.save(preferences)
        #expect(try file.load(parser) == preferences)
        try file.save(Preferences(theme: "light"))
        #expect(try file.load(parser) == Preferences(theme: "light"), "a save replaces the whole file")
    }

    @Test func theFileAndTheFolderItMadeAreTheOwnersOnly() throws {
        let file = PreferencesFile(path: folder + "/taskflow/config.toml")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try file.save(Preferences(theme: "light"))
        #expect(try permissions(of: file.path) == 0o600)
        #expect(try permissions(of: folder + "/taskflow") == 0o700)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder + "/taskflow")
        #expect(leftovers == ["config.toml"], "no temporary file is left beside it")
    }

    @Test func aMissingFileIsNoPreference() throws {
        #expect(try PreferencesFile(path: folder + "/absent.toml").load(parser) == Preferences())
    }

    @Test func anUnwritableFileIsAnErrorThatSaysWhereAndWhy() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        // A folder where the file should be: no rename can replace it, even as root.
        try FileManager.default.createDirectory(atPath: folder + "/config.toml", withIntermediateDirectories: true)
        let error = #expect(throws: PreferencesWriteError.self) {
            try PreferencesFile(path: folder + "/config.toml").save(Preferences(theme: "light"))
        }
        #expect(error?.description.hasPrefix("preferences not saved to \(folder)/config.toml: cannot replace") == true)
    }

    @Test func theLocationFollowsConfigThenXDGThenHome() {
        #expect(PreferencesFile.located(explicit: "/x/c.toml", environment: ["HOME": "/home/a"])?.path == "/x/c.toml")
        #expect(PreferencesFile.located(explicit: nil, environment: ["XDG_CONFIG_HOME": "/cfg", "HOME": "/home/a"])?.path == "/cfg/taskflow/config.toml")
        #expect(
            PreferencesFile.located(explicit: nil, environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/home/a"])?.path
                == "/home/a/.config/taskflow/config.toml", "XDG: a relative XDG_CONFIG_HOME is ignored")
        #expect(PreferencesFile.located(explicit: nil, environment: [:]) == nil)
    }

    @Test(arguments: [
        ("mouse = \"yes\"", "config.toml:1:9: 'mouse' must be true or false, not a string"),
        ("history = 0", "config.toml:1:11: 'history' must be from 1 to 1000000, not 0"),
        ("colour = \"red\"", "config.toml:1:1: unknown setting 'colour'; use theme, mouse, history, sort"),
        ("[sort]\njobs = { column = \"id\" }", "config.toml:2:1: no view 'jobs' to sort; use flows, store"),
        ("[sort]\nflows = { column = \"size\" }", "config.toml:2:20: no column \"size\" in this view; use id, title, elapsed"),
        ("[sort]\nflows = { column = \"id\", order = \"up\" }", "config.toml:2:34: 'order' is \"ascending\" or \"descending\", not \"up\""),
        ("[sort]\nflows = { order = \"ascending\" }", "config.toml:2:1: 'sort.flows' needs a column"),
        ("theme = ", "config.toml:1:9: invalid TOML"),
    ])
    func eachMistakeIsOneLineAtItsPlace(source: String, expected: String) {
        let error = #expect(throws: PreferencesError.self) { try parser.parse(source, file: "config.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
        #expect(error?.exitCode == 2)
    }

    private func permissions(of path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1) & 0o777
    }
}

@Suite("Preferences: what they decide at start")
@MainActor
struct PreferencesAtStartTests {
    @Test func historyIsTheFlagsElseTheFilesElseTheDefault() {
        let keeper = PreferenceKeeper(file: PreferencesFile(path: "/nonexistent/config.toml"), preferences: Preferences(history: 7))
        #expect(DashboardLauncher(program: "t", output: .text, history: 3, preferences: keeper).history == 3)
        #expect(DashboardLauncher(program: "t", output: .text, history: nil, preferences: keeper).history == 7)
        #expect(DashboardLauncher(program: "t", output: .text, history: nil).history == FlowBoard.defaultHistoryLimit)
    }

    @Test func aRememberedThemeThatNoLongerLoadsFallsBackToTheDefaultAndSaysWhy() throws {
        let catalog = ThemeCatalog(directories: [ViewSnapshotTests.themesDirectory])
        let remembered = try DashboardLauncher.theme(asked: nil, remembered: "light", noColor: false, catalog: catalog)
        #expect(remembered.theme.name == "light" && remembered.problem == nil)
        let gone = try DashboardLauncher.theme(asked: nil, remembered: "deleted-theme", noColor: false, catalog: catalog)
        #expect(gone.theme.name == "default")
        #expect(gone.problem?.hasPrefix("the remembered theme \"deleted-theme\" did not load") == true)
        let asked = try DashboardLauncher.theme(asked: "high-contrast", remembered: "light", noColor: false, catalog: catalog)
        #expect(asked.theme.name == "high-contrast", "a flag wins over the file")
        #expect(throws: ThemeError.self, "a bad flag still ends the start") {
            try DashboardLauncher.theme(asked: "deleted-theme", remembered: "light", noColor: false, catalog: catalog)
        }
    }

    @Test func rememberWritesOnlyChangesAndReportsAFailedWriteOnce() {
        var keeper = PreferenceKeeper(file: PreferencesFile(path: "/proc/taskflow-cannot-write/config.toml"), preferences: Preferences())
        #expect(keeper.remember { $0.theme = "light" } != nil, "the first failure is reported")
        #expect(keeper.remember { $0.theme = "default" } == nil, "later ones are not: the log said it once")
        #expect(keeper.preferences.theme == "default", "the run goes on with the choice")
        #expect(keeper.remember { $0.theme = "default" } == nil, "no change, no write")
    }
}
