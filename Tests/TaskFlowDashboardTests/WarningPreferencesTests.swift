@testable import DashboardKit
import Foundation
import TOMLSource
import Testing

/// The warnings' thresholds in config.toml: read, checked like every other key, written back,
/// and handed to the model.
@Suite("Preferences: warning thresholds")
struct WarningPreferencesTests {
    private let parser = PreferencesParser.dashboard
    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-warn-\(UUID().uuidString)").path

    @Test func aWarningsTableSetsEachThreshold() throws {
        let source = """
            [warnings]
            writer-read-phases = 5
            writer-wait-seconds = 12.5
            step-stall-seconds = 90
            job-retries = 0
            """
        let preferences = try parser.parse(source, file: "config.toml")
        #expect(preferences.warnings == WarningThresholds(
            writerReadPhases: 5, writerWait: .milliseconds(12_500), stepStall: .seconds(90), jobRetries: 0))
    }

    @Test func theKeysATableLeavesOutKeepTheirDefaults() throws {
        let preferences = try parser.parse("[warnings]\njob-retries = 10", file: "config.toml")
        #expect(preferences.warnings == WarningThresholds(jobRetries: 10))
        #expect(try parser.parse("theme = \"light\"", file: "config.toml").warnings == nil, "no table: every default")
        let defaults = WarningThresholds()
        #expect(defaults.writerReadPhases == 3 && defaults.writerWait == .seconds(30) && defaults.stepStall == .seconds(60)
            && defaults.jobRetries == 3)
    }

    @Test(arguments: [
        ("[warnings]\njob-retries = -1", "config.toml:2:15: 'warnings.job-retries' must be from 0 to 1000000, not -1"),
        ("[warnings]\nwriter-read-phases = 2.5", "config.toml:2:22: 'warnings.writer-read-phases' must be a whole number, not a number"),
        ("[warnings]\nstep-stall-seconds = \"1m\"", "config.toml:2:22: 'warnings.step-stall-seconds' must be a number of seconds, not a string"),
        ("[warnings]\nwriter-wait-seconds = 0", "config.toml:2:23: 'warnings.writer-wait-seconds' must be from 0.1 to 604800 seconds, not 0"),
        ("[warnings]\nlost-wakers = 1", "config.toml:2:1: unknown warning threshold 'lost-wakers'; use writer-read-phases, writer-wait-seconds"),
        ("warnings = 3", "config.toml:1:12: 'warnings' must be a table, like [warnings] job-retries = 3"),
    ])
    func anInvalidThresholdIsAnErrorAtItsPlace(source: String, expected: String) {
        let error = #expect(throws: PreferencesError.self) { try parser.parse(source, file: "config.toml") }
        #expect(error?.description.hasPrefix(expected) == true, "\(error?.description ?? "no error")")
        #expect(error?.exitCode == 2)
    }

    @Test func thresholdsAreWrittenBackAndReadTheSame() throws {
        let preferences = Preferences(
            theme: "light", warnings: WarningThresholds(writerReadPhases: 7, writerWait: .milliseconds(2500), stepStall: .seconds(600), jobRetries: 1))
        let file = PreferencesFile(path: folder + "/config.toml")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try file.save(preferences)
        #expect(try file.load(parser) == preferences)
        #expect(PreferencesFile.text(of: preferences).contains("[warnings]"))
    }

    @Test @MainActor func aConfigFileSetsTheModelsThresholds() throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/config.toml"
        try "[warnings]\nstep-stall-seconds = 5\n".write(toFile: path, atomically: true, encoding: .utf8)
        let session = DashboardSession(scenarioName: "test", theme: .fallback, themes: ThemeCatalog(directories: []))
        session.preferences = try PreferenceKeeper.open(explicit: path, environment: [:])
        #expect(session.model.warningThresholds.stepStall == .seconds(5))
        session.preferences = nil
        #expect(session.model.warningThresholds == WarningThresholds())
    }
}
