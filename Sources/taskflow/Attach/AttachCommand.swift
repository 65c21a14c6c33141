import ArgumentParser
import DashboardKit
import Foundation
import TaskFlowConsole

/// `taskflow attach [PID | PATH]`: the dashboard over a running program that serves its
/// console (`ConsoleServer`), its keys acting on the program.
struct AttachCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "attach",
        abstract: "Watch and steer a running program that serves its console.",
        discussion: """
            A program serves its flows, job queues and job store with ConsoleServer on a \
            Unix-domain socket only its user can reach; attach shows them as a local run \
            would, and the keys act on the program: c cancels a flow there, u undoes it, the \
            queues' and stored jobs' keys steer them; each command's outcome shows in the \
            status line. q leaves, the program goes on. When the program exits, attach says \
            so in one line and exits 0. A program that cannot be attached: one line, status 2.

            Examples:
              taskflow attach                   the one attachable program of this user
              taskflow attach --list            pid, program, title, started, flows running
              taskflow attach 4242              by pid
              taskflow attach /tmp/app.sock     by socket (e.g. one forwarded with ssh -L)
              taskflow attach 4242 --json       the program's events as JSON lines
            """
    )

    @Argument(help: ArgumentHelp("The program's pid, or its console's socket path.", valueName: "pid|path"))
    var target: String?

    @Flag(help: "List this user's attachable programs and exit.")
    var list = false

    @Flag(help: "Print one line per event instead of opening the dashboard (also when stdout is not a terminal).")
    var headless = false

    @Flag(help: "Print events as JSON Lines (implies --headless).")
    var json = false

    @Option(help: ArgumentHelp("A theme name from Themes/ or a path to a .toml file.", valueName: "name|path"))
    var theme: String?

    @Option(help: ArgumentHelp("How many finished flows the dashboard keeps listed.", valueName: "n"))
    var history: String?

    @Option(help: ArgumentHelp("Also write what the dashboard shows to this file (owner-only), for 'taskflow replay'.", valueName: "file"))
    var record: String?

    @Option(help: ArgumentHelp("The preferences file (default: $XDG_CONFIG_HOME/taskflow/config.toml, else ~/.config/taskflow/config.toml).", valueName: "path"))
    var config: String?

    @Flag(
        name: .customLong("no-mouse"),
        help: "Leave the mouse to the terminal (text selection) instead of clicks and the wheel; overrides the preferences' 'mouse'.")
    var noMouse = false

    func run() throws {
        if list { return try printList() }
        // Checked before connecting: a bad option never costs the program a client.
        let display = try displayOptions()
        let path = try socketPath()
        let client: ConsoleClient
        do {
            client = try awaiting { try await ConsoleClient.connect(path: path) }
        } catch {
            throw failure("cannot attach: \(error)")
        }
        let source = RemoteSource(client)
        let title = "\(source.hello.program) (pid \(source.hello.pid))"
        let status = dashboardStatus({ source }, display: display, title: title)
        if let line = source.endLine { printError(line) }
        throw ExitCode(status)
    }

    /// The dashboard's options, checked as `taskflow run` checks them.
    private func displayOptions() throws -> DisplayOptions {
        var arguments: [String] = []
        if headless { arguments.append("--headless") }
        if json { arguments.append("--json") }
        if let theme { arguments += ["--theme", theme] }
        if let history { arguments += ["--history", history] }
        if let record { arguments += ["--record", record] }
        if let config { arguments += ["--config", config] }
        if noMouse { arguments.append("--no-mouse") }
        return try DisplayOptions.parse(arguments)
    }

    /// The socket: the path given, the pid's in this user's folder, or the one program there.
    private func socketPath() throws -> String {
        if let target {
            return Int32(target).map(ConsoleDirectory.path(pid:)) ?? target
        }
        let programs = awaitingList()
        switch programs.count {
        case 1: return programs[0].path
        case 0: throw failure("no attachable program of this user (no console answers in \(ConsoleLocation.defaultFolder))")
        default:
            let names = programs.map { "\($0.hello.pid) \($0.hello.program)" }.joined(separator: ", ")
            throw failure("\(programs.count) attachable programs (\(names)): name one, as in 'taskflow attach \(programs[0].hello.pid)'")
        }
    }

    /// `--list`: one line per program, under a header.
    private func printList() throws {
        let programs = awaitingList()
        guard !programs.isEmpty else {
            throw failure("no attachable program of this user (no console answers in \(ConsoleLocation.defaultFolder))")
        }
        OutputWriter.standardOutput.write(Self.listing(programs))
    }

    /// `--list`'s text: a header, then a line per program, its fields separated by tabs. Each
    /// field is escaped on its own, so that a title's tab or newline shows as `\u{9}` and never
    /// adds a column or a line, while the separators stay tabs for `cut` and `awk`.
    static func listing(_ programs: [AttachableProgram]) -> String {
        let header = ["PID", "PROGRAM", "TITLE", "STARTED", "FLOWS RUNNING"]
        let rows = programs.map { program in
            let hello = program.hello
            return ["\(hello.pid)", hello.program, hello.title, hello.started.formatted(.iso8601), "\(program.flowsRunning)"]
        }
        let lines = ([header] + rows).map { fields in fields.map(\.escapingControlCharacters).joined(separator: "\t") }
        return lines.joined(separator: "\n") + "\n"
    }

    private func awaitingList() -> [AttachableProgram] {
        // Never throws: a console that does not answer is left out.
        (try? awaiting { await ConsoleDirectory.list() }) ?? []
    }
}
