import ArgumentParser
import TaskFlowScenario

/// What `taskflow` without a subcommand does: plays the tour demo, with the display options
/// given (`taskflow --speed 2`). A hidden default subcommand rather than options on the root, so
/// that no other command's options (`jobs --json`) collide with these.
struct TourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour", abstract: "Play the tour demo (what taskflow does without a subcommand).", shouldDisplay: false)

    @OptionGroup var display: DisplayOptions

    func run() throws {
        try DemoCommand.play(DemoCatalog.defaultDemo, display: display)
    }
}
