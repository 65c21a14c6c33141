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

    // `.unconditional`: a value starting with "-" is the option's value, so `--speed -1` is
    // refused as out of range rather than as a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Time scale, 0.01 to 1000: 2 runs twice as fast, 0.5 half as fast.", valueName: "factor"),
        transform: DisplayOptions.speed(from:))
    var speed: Double = 1

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Seed for the scenario's fail_chance steps (overrides the file's seed).", valueName: "n"))
    var seed: UInt64?

    @Option(
        help: ArgumentHelp(
            "How many finished flows the dashboard keeps listed (the newest; the header counts them all).",
            valueName: "n"),
        transform: DisplayOptions.history(from:))
    var history: Int = FlowBoard.defaultHistoryLimit

    @Option(
        name: .customLong("store"),
        help: ArgumentHelp("A durable job store to show in the jobs view (Tab), e.g. the one 'taskflow jobs' uses.", valueName: "path"))
    var storePath: String?

    /// Hidden, for tests: a start-up step that takes this many seconds, so that keys can be
    /// typed while taskflow starts.
    @Option(name: .customLong("boot-delay"), help: ArgumentHelp(visibility: .hidden))
    var bootDelay: Double?

    /// Pace and seed for a scenario file.
    var runOptions: RunOptions { RunOptions(speed: speed, seed: seed) }

    /// `--speed`'s value: a plain decimal number within ``RunOptions/validSpeeds``. `Double(_:)`
    /// alone would also take "0x10" (as 16), "1e3", "inf" and "nan".
    static func speed(from text: String) throws -> Double {
        guard text.wholeMatch(of: /[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)/) != nil, let speed = Double(text) else {
            throw ValidationError("not a decimal number like 2 or 0.5")
        }
        guard RunOptions.isValidSpeed(speed) else {
            let range = RunOptions.validSpeeds
            throw ValidationError("out of range, must be from \(plain(range.lowerBound)) to \(plain(range.upperBound))")
        }
        return speed
    }

    /// `--history`'s value: a whole number, at least 1.
    static func history(from text: String) throws -> Int {
        guard let count = Int(text), count >= 1 else { throw ValidationError("must be a whole number of at least 1") }
        return count
    }

    /// `1000` rather than `1000.0`.
    private static func plain(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}
