import ArgumentParser
import TaskFlowDashboard
import TaskFlowScenario

/// How a scenario is shown and paced: the options every command that runs flows shares.
struct DisplayOptions: ParsableArguments {
    @Flag(help: "Print one line per event instead of opening the dashboard (also when stdout is not a terminal).")
    var headless = false

    @Flag(help: "Print events as JSON Lines (implies --headless).")
    var json = false

    @Option(help: ArgumentHelp(
        "A theme name from Themes/ (default, light, high-contrast, monochrome) or a path to a .toml file.",
        valueName: "name|path"))
    var theme: String?

    @Option(help: ArgumentHelp("Time scale, 0.01 to 1000: 2 runs twice as fast, 0.5 half as fast.", valueName: "factor"))
    var speed: Double = 1

    @Option(help: ArgumentHelp("Seed for the scenario's fail_chance steps (overrides the file's seed).", valueName: "n"))
    var seed: UInt64?

    @Option(help: ArgumentHelp(
        "How many finished flows the dashboard keeps listed (the newest; the header counts them all).",
        valueName: "n"))
    var history: Int = FlowBoard.defaultHistoryLimit

    /// Pace and seed for a scenario file.
    var runOptions: RunOptions { RunOptions(speed: speed, seed: seed) }

    func validate() throws {
        guard history >= 1 else { throw ValidationError("--history must be at least 1, got \(history)") }
        guard RunOptions.isValidSpeed(speed) else {
            throw ValidationError("--speed must be between \(RunOptions.validSpeeds.lowerBound) and \(RunOptions.validSpeeds.upperBound), got \(speed)")
        }
    }
}
