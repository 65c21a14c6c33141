import ArgumentParser
import DashboardKit

/// `taskflow replay FILE`: plays a recording again.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play a recording again: the same screens, read-only, with time controls.",
        discussion: """
            A recording is written by --record (taskflow demo, run and attach). On a terminal \
            the dashboard shows it with a time bar; space pauses, + and - change the speed, \
            the arrows ← → step from event to event, [ and ] jump 10 s, Home and End go to the \
            start and the end (? lists them). Keys that would act on the program say \
            "replay: read-only".

            Headless, it prints exactly the lines the recorded headless run printed, as fast \
            as it can unless --speed is given. A line that cannot be read is reported as \
            file:line: why after what could be played, with exit status 2.

            Examples:
              taskflow demo publish-post --record run.jsonl
              taskflow replay run.jsonl --speed 4
              taskflow replay run.jsonl --headless --json
            """
    )

    @Argument(help: "The recording (a file written with --record).")
    var file: String

    @Flag(help: "Print one line per event instead of opening the dashboard (also when stdout is not a terminal).")
    var headless = false

    @Flag(help: "Print events as JSON Lines (implies --headless).")
    var json = false

    // `.unconditional`, as taskflow demo's: `--speed -1` is out of range, not a missing value.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Time scale, \(NumberArgument.describe(ReplayTimeline.speeds)): 2 plays twice as fast. Headless, without it: as fast as possible.",
            valueName: "factor"),
        transform: NumberArgument.decimal(in: ReplayTimeline.speeds))
    var speed: Double?

    @Option(help: ArgumentHelp("A theme name from Themes/ or a path to a .toml file.", valueName: "name|path"))
    var theme: String?

    @Flag(
        name: .customLong("no-mouse"),
        help: "Leave the mouse to the terminal (text selection) instead of clicks and the wheel; overrides the preferences' 'mouse'.")
    var noMouse = false

    func run() throws {
        // As `show`: ParsableCommand.main() runs this on the main thread, which the loop must own.
        let status = MainActor.assumeIsolated {
            ReplayLauncher(path: file, headless: headless || json, json: json, speed: speed, themeName: theme, noMouse: noMouse).run()
        }
        throw ExitCode(status)
    }
}
