import Foundation
import Testing

/// The `taskflow` command line without a terminal: listing, checking, refusing bad input.
@Suite struct CommandLineTests {
    /// The package's demo folder, found from this file's place in the package.
    static let demoFolder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "demo", directoryHint: .isDirectory)

    @Test func everyDemoIsListedAndPassesCheck() throws {
        let list = try TaskflowProcess.run(["demo"])
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("built-in"))
        let files = try FileManager.default.contentsOfDirectory(at: Self.demoFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "toml" }
        #expect(files.count >= 5)
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            #expect(list.standardOutput.contains(name), "\(name) is listed")
            let check = try TaskflowProcess.run(["check", file.path])
            #expect(check.status == 0, "\(name): \(check.standardError)")
            #expect(check.standardOutput.contains("flows:") && check.standardOutput.contains("steps:"), "\(name)")
        }
    }

    @Test func anUnknownDemoNamesTheOnesThatExist() throws {
        let result = try TaskflowProcess.run(["demo", "no-such-demo"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("no demo named 'no-such-demo'"))
        #expect(result.standardError.contains("tour") && result.standardError.contains("built-in"))
    }

    @Test func aMissingScenarioFileIsAClearError() throws {
        let result = try TaskflowProcess.run(["run", "/no/such/file.toml"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("/no/such/file.toml"))
    }

    @Test func aBadSpeedIsRefusedBeforeAnythingRuns() throws {
        let result = try TaskflowProcess.run(["demo", "tour", "--speed", "0", "--headless"])
        #expect(result.status != 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.contains("--speed"))
    }

    @Test func aHeadlessRunOfADemoEndsOnItsOwnAndExitsZero() throws {
        let result = try TaskflowProcess.run(["demo", "publish-post", "--headless", "--speed", "20"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("\"Publish with a broken video\" failed"))
        #expect(result.standardOutput.contains("\"Publish holiday post\" completed"))
    }
}
