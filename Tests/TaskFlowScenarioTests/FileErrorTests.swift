import Foundation
import Testing
@testable import TaskFlowScenario

/// Files that cannot be used at all: one clear line each, and the exit status the CLI needs.
@Suite struct FileErrorTests {
    @Test func missingFile() {
        let url = URL(filePath: "/nonexistent/scenario.toml")
        #expect(throws: ScenarioError([ScenarioDiagnostic(file: "/nonexistent/scenario.toml", position: nil, message: "no such file")])) {
            try Scenario.load(contentsOf: url)
        }
    }

    @Test func directory() throws {
        let error = try #require(throws: ScenarioError.self) { try Scenario.load(contentsOf: Paths.demo) }
        #expect(error.description.hasSuffix("demo: is a directory, not a scenario file"))
        #expect(error.exitCode == 2)
    }

    @Test func notText() throws {
        let error = try #require(throws: ScenarioError.self) { try Scenario.load(contentsOf: Paths.fixture("binary.toml")) }
        #expect(error.description.hasSuffix("binary.toml: is not UTF-8 text"))
    }

    @Test(.enabled(if: geteuid() != 0, "root reads every file"))
    func unreadableFile() throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "unreadable-\(UUID()).toml")
        try Data("name = \"x\"".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path(percentEncoded: false))
        let error = try #require(throws: ScenarioError.self) { try Scenario.load(contentsOf: url) }
        #expect(error.description.contains("cannot be read"))
    }

    @Test func syntaxErrorInAFileNamesTheFile() throws {
        let error = try #require(throws: ScenarioError.self) { try Scenario.load(contentsOf: Paths.fixture("unclosed-table.toml")) }
        let line = try #require(error.diagnostics.first)
        #expect(line.position?.line == 3)
        #expect(line.description.contains("unclosed-table.toml:3:"))
    }

    @Test func goodFixtureLoads() throws {
        let scenario = try Scenario.load(contentsOf: Paths.fixture("good.toml"))
        #expect(scenario.name == "Good")
        #expect(scenario.flows.map(\.title) == ["Write", "Read"])
    }
}
