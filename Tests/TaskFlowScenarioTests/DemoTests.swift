import Foundation
import Testing
@testable import TaskFlowScenario

/// The shipped demos: all valid, all found, each what its header promises.
@Suite struct DemoTests {
    @Test func everyDemoParsesAndValidates() throws {
        let demos = try DemoCatalog.demos(in: Paths.demo)
        #expect(demos.map(\.name) == ["tour", "jobs", "publish-post", "read-write", "rollback", "stress"])
        for demo in demos {
            let scenario = try demo.load()
            #expect(!scenario.flows.isEmpty, "\(demo.name)")
            #expect(!scenario.description.isEmpty, "\(demo.name)")
        }
    }

    @Test func everyDemoStartsWithACommentHeader() throws {
        for demo in try DemoCatalog.demos(in: Paths.demo) {
            let text = try String(contentsOf: demo.url, encoding: .utf8)
            #expect(text.hasPrefix("# \(demo.name).toml: "), "\(demo.name)")
            #expect(text.contains("What to watch"), "\(demo.name)")
        }
    }

    @Test func theFormatReferenceExampleIsValid() throws {
        let reference = try String(contentsOf: Paths.demo.appending(path: "FORMAT.md"), encoding: .utf8)
        let example = try #require(reference.components(separatedBy: "```toml\n").last?.components(separatedBy: "```").first)
        let scenario = try Scenario.parse(example, file: "FORMAT.md")
        #expect(scenario.flows.map(\.title) == ["Publish holiday post", "Read the feed", "Publish broken post"])
    }

    @Test func theJobsDemoSummaryCountsItsJobsAndQueues() throws {
        let summary = ScenarioSummary(try Scenario.load(contentsOf: Paths.demo.appending(path: "jobs.toml")))
        #expect(summary.description.contains("\n  jobs: 16 on 3 queues (1 blocking); 5 wait for others, 2 retry\n"))
        #expect(!ScenarioSummary(try Scenario.load(contentsOf: Paths.demo.appending(path: "tour.toml"))).description.contains("jobs:"))
    }

    @Test func stressSubmitsHundredsOfFlows() throws {
        let summary = ScenarioSummary(try Scenario.load(contentsOf: Paths.demo.appending(path: "stress.toml")))
        #expect(summary.submissions >= 300)
    }

    @Test func demoFolderIsFoundFromInsideThePackage() {
        let deep = Paths.packageRoot.appending(path: "Tests/TaskFlowScenarioTests/Fixtures", directoryHint: .isDirectory)
        #expect(DemoCatalog.demoFolder(searchingUpFrom: deep)?.standardizedFileURL == Paths.demo.standardizedFileURL)
        #expect(DemoCatalog.demoFolder(executable: nil, currentDirectory: deep) != nil)
        #expect(DemoCatalog.demoFolder(searchingUpFrom: URL(filePath: "/proc/self", directoryHint: .isDirectory)) == nil)
    }

    @Test func demoByName() throws {
        #expect(try DemoCatalog.demo(named: "rollback", in: Paths.demo)?.url.lastPathComponent == "rollback.toml")
        #expect(try DemoCatalog.demo(named: "nope", in: Paths.demo) == nil)
        let error = try #require(throws: ScenarioError.self) { try DemoCatalog.demos(in: URL(filePath: "/nonexistent")) }
        #expect(error.description == "/nonexistent: cannot list the demos (no such directory)")
        #expect(error.exitCode == 2)
    }

    @Test func summaryCountsFlowsStepsAndTime() throws {
        let summary = ScenarioSummary(try Scenario.load(contentsOf: Paths.demo.appending(path: "publish-post.toml")))
        #expect(summary.flows == 3)
        #expect(summary.readSubmissions == 1)
        #expect(summary.steps == StepCounts(main: 1, task: 9, group: 2, sequence: 2, update: 4))
        // The broken post starts at 1.5s: its 3s of uploads and 0.8s post end at 5.3s.
        #expect(summary.totalDuration == .milliseconds(5300))
        #expect(summary.description.contains("steps: 18 (1 main, 9 task, 2 group, 2 sequence, 4 update)"))
    }
}
