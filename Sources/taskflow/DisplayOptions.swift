import ArgumentParser
import DashboardKit
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

    // `.unconditional`: a value starting with "-" is the option's value, so `--speed -1` is
    // refused as out of range rather than as a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Time scale, \(NumberArgument.describe(RunOptions.validSpeeds)): 2 runs twice as fast, 0.5 half as fast.",
            valueName: "factor"),
        transform: NumberArgument.decimal(in: RunOptions.validSpeeds))
    var speed: Double = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seed for the scenario's fail_chance steps (overrides the file's seed).", valueName: "n"),
        transform: NumberArgument.whole(in: UInt64.min...UInt64.max))
    var seed: UInt64?

    // `.unconditional`, as `--speed`: `--history -1` is out of range, not a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "How many finished flows the dashboard keeps listed, \(NumberArgument.describe(FlowBoard.historyLimits)) (the newest; the header counts them all; default \(FlowBoard.defaultHistoryLimit)).",
            valueName: "n"),
        transform: NumberArgument.whole(in: FlowBoard.historyLimits))
    var history: Int?

    @Option(
        name: .customLong("config"),
        help: ArgumentHelp(
            "The preferences file (default: $XDG_CONFIG_HOME/taskflow/config.toml, else ~/.config/taskflow/config.toml).",
            valueName: "path"))
    var configPath: String?

    @Flag(
        name: .customLong("no-mouse"),
        help: "Leave the mouse to the terminal (text selection) instead of clicks and the wheel; overrides the preferences' 'mouse'.")
    var noMouse = false

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("A durable job store to show in the jobs view (Tab), e.g. the one 'taskflow jobs' uses.", valueName: "path"))
    var storePath: String?

    @Option(
        name: .customLong("record"),
        help: ArgumentHelp(
            "Also write what the dashboard shows to this file (owner-only), for 'taskflow replay'.", valueName: "file"))
    var recordPath: String?

    /// Hidden, for tests: a start-up step that takes this many seconds, so that keys can be
    /// typed while taskflow starts.
    @Option(
        name: .customLong("boot-delay"), help: ArgumentHelp(visibility: .hidden),
        transform: NumberArgument.decimal(in: 0...3600))
    var bootDelay: Double?

    /// How the launcher shows the events.
    var output: Dashboard.Output { json ? .json : headless ? .text : .automatic }

    /// Pace and seed for a scenario file.
    var runOptions: RunOptions { RunOptions(speed: speed, seed: seed) }
}
