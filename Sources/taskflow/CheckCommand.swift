import ArgumentParser
import DashboardKit
import Foundation
import TaskFlowScenario

/// `taskflow check FILE`: validates a scenario file and summarises it, running nothing.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a scenario file and summarise its flows and steps.",
        discussion: """
            Prints the summary and exits 0 when the file is valid; otherwise prints one \
            file:line:column: message per problem and exits 2.

            Example:
              taskflow check demo/publish-post.toml
            """
    )

    @Argument(help: "The scenario file (.toml).")
    var file: String

    func run() throws {
        let scenario = try Scenario.load(contentsOf: URL(filePath: file))
        OutputWriter.standardOutput.write("\(ScenarioSummary(scenario))\n")
    }
}
