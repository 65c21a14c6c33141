import ArgumentParser
import Foundation
import TaskFlowScenario

/// `taskflow run FILE`: plays a scenario file.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Play a scenario file on the dashboard.",
        discussion: """
            The file is validated first: any problem is reported as file:line:column: message, \
            nothing runs, and the exit status is 2. The format is described in demo/FORMAT.md.

            Examples:
              taskflow run my-flows.toml
              taskflow run my-flows.toml --speed 4 --seed 7 --json > events.jsonl
            """
    )

    @Argument(help: "The scenario file (.toml).")
    var file: String

    @OptionGroup var display: DisplayOptions

    func run() throws {
        let (url, options) = (URL(filePath: file), display.runOptions)
        try show(
            { ScenarioFeed(try Scenario.load(contentsOf: url), options: options) }, display: display,
            title: url.deletingPathExtension().lastPathComponent)
    }
}
