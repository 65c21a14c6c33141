import Foundation
import Testing
import TaskFlowTestSupport

/// One tmux session running the built `taskflow` binary in a real terminal, on a private tmux
/// server (`-L`) so tests never touch the user's sessions. After the program exits, the pane's
/// shell prints `EXIT=<status>` and `stty -a`, so tests can check the terminal was restored.
struct Tmux {

    /// True when a tmux binary can be run.
    static let isInstalled: Bool = (try? Tmux.spawn(["tmux", "-V"]).status) == 0

    /// The `taskflow` binary built next to the test bundle.
    static var binary: String { built("taskflow") }

    /// The embedding example, `folder-sync-example`, built next to the test bundle.
    static var example: String { built("folder-sync-example") }

    /// The executable `name` built next to the test bundle.
    static func built(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent(name).path
    }

    let name: String
    /// A tmux server per session: a test never races another's server shutting down.
    private var socket: String { "taskflow-tests-\(getpid())-\(name)" }

    /// Starts `taskflow arguments` (or `program`'s) in a new 120×40 session; by default the
    /// built-in demo, whose flows the tests know by name. With `jobControl`, it is typed into an
    /// interactive bash, so that Ctrl-Z stops it and `fg` brings it back as in a user's shell.
    init(
        _ name: String, program: String = Tmux.binary, arguments: String = "demo built-in", environment: String = "",
        jobControl: Bool = false
    ) throws {
        self.name = name
        // Preferences of its own (none at start), unless `environment` names a folder: a test
        // that picks a theme never changes another's start, nor the user's own config.
        let program = "XDG_CONFIG_HOME='\(Tmux.freshConfigHome())' \(environment) LANG=C.UTF-8 '\(program)' \(arguments); echo EXIT=$?; stty -a"
        let command = jobControl ? "bash --norc --noprofile -i" : program + "; sleep 3600"
        let (status, output) = try run(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", command])
        guard status == 0 else { throw TmuxError(message: "tmux new-session failed: \(output)") }
        if jobControl { try run(["send-keys", "-t", name, "-l", program + "\n"]) }
    }

    /// A folder for `XDG_CONFIG_HOME` that does not exist yet: taskflow started with it reads no
    /// preferences, and writes its own there.
    static func freshConfigHome() -> String {
        FileManager.default.temporaryDirectory.appending(path: "taskflow-config-\(UUID().uuidString)").path
    }

    /// The pane's text now.
    func capture() -> String {
        (try? run(["capture-pane", "-p", "-t", name]).output) ?? ""
    }

    /// The pane's text with its colours and attributes as escape sequences.
    func captureWithEscapes() -> String {
        (try? run(["capture-pane", "-p", "-e", "-t", name]).output) ?? ""
    }

    /// Types keys (tmux key names: `q`, `Enter`, `Escape`, `Home`).
    func send(_ keys: String...) throws {
        try run(["send-keys", "-t", name] + keys)
    }


    /// Resizes the window, as a user dragging the terminal would.
    func resize(width: Int, height: Int) throws {
        try run(["resize-window", "-t", name, "-x", "\(width)", "-y", "\(height)"])
    }

    /// A pane variable: `cursor_flag`, `alternate_on`, `pane_pid`.
    func variable(_ name: String) -> String {
        ((try? run(["display-message", "-p", "-t", self.name, "#{\(name)}"]).output) ?? "")
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `stty -a` of the pane's terminal, read from outside while its program runs.
    func terminalModes() throws -> String {
        try Tmux.spawn(["stty", "-a", "-F", variable("pane_tty")]).output
    }

    /// The pid of the program the pane's shell runs (its only child until it exits).
    var programPID: pid_t? {
        let shell = variable("pane_pid")
        let children = try? String(contentsOfFile: "/proc/\(shell)/task/\(shell)/children", encoding: .utf8)
        return children?.split(separator: " ").first.flatMap { pid_t($0) }
    }

    /// Polls the pane until `predicate` holds on its text, then types `keys` (if any); returns
    /// that text. Fails the test with the last screen after `timeout`.
    ///
    /// The polls run on a thread of their own (``offThePool(_:)``), not on the cooperative pool:
    /// beside the store's suite on two cores, a poll waiting there for a thread was seen to wait
    /// over 5 s, and a state the screen showed for seconds went by unseen. For the same reason
    /// `keys` that must arrive while that state lasts (a cancel while a step runs) are typed
    /// from that thread, not after the hop back to the test's task.
    @discardableResult
    func waitFor(
        _ what: String, thenSend keys: [String] = [], timeout: Duration = .seconds(40),
        sourceLocation: SourceLocation = #_sourceLocation, _ predicate: @escaping @Sendable (String) -> Bool
    ) async throws -> String {
        let (screen, seen) = try await offThePool { [self] in
            let deadline = ContinuousClock.now + timeout
            while true {
                let screen = capture()
                if predicate(screen) {
                    if !keys.isEmpty { try run(["send-keys", "-t", name] + keys) }
                    return (screen, true)
                }
                guard ContinuousClock.now < deadline else { return (screen, false) }
                usleep(100_000)
            }
        }
        guard seen else {
            Issue.record("timed out waiting for \(what); screen:\n\(screen)", sourceLocation: sourceLocation)
            throw TmuxTimeout()
        }
        return screen
    }

    /// Waits for the program's exit and checks what a user would: the status, and a terminal
    /// back in canonical mode with echo, cursor visible, main screen.
    func expectExit(status: Int32, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // `stty -a` prints "speed …" first and the local flags (`icanon`, or `-icanon`) lines
        // later: wait for the flags themselves, not for the first line.
        let screen = try await waitFor("the exit status", sourceLocation: sourceLocation) {
            $0.contains("EXIT=") && $0.contains("icanon")
        }
        #expect(screen.contains("EXIT=\(status)"), "exit status; screen:\n\(screen)", sourceLocation: sourceLocation)
        let words = Set(screen.split(whereSeparator: \.isWhitespace).map(String.init))
        #expect(words.contains("icanon") && words.contains("echo"), "canonical mode and echo restored", sourceLocation: sourceLocation)
        #expect(variable("alternate_on") == "0", "back on the main screen", sourceLocation: sourceLocation)
        #expect(variable("cursor_flag") == "1", "cursor visible", sourceLocation: sourceLocation)
        // Read from outside: `stty -a` in the pane wraps its long line of characters.
        #expect((try? terminalModes())?.contains("susp = ^Z") == true, "the suspend character back", sourceLocation: sourceLocation)
    }

    /// Ends the session (the `sleep` keeping the pane open, and the program if still running),
    /// and with it the private server, whose socket file tmux leaves behind.
    func close() {
        _ = try? run(["kill-session", "-t", name])
        let directory = ProcessInfo.processInfo.environment["TMUX_TMPDIR"] ?? "/tmp"
        unlink("\(directory)/tmux-\(getuid())/\(socket)")
    }

    /// Runs `tmux -L socket arguments` and returns its status and output.
    @discardableResult
    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        try Self.spawn(["tmux", "-L", socket] + arguments)
    }

    /// Runs a command and returns its status and output.
    ///
    /// Not through Foundation's `Process`: the first `new-session` forks the tmux server, which
    /// inherits the child's descriptors and outlives it, and `Process.waitUntilExit()` then
    /// never returns. Output goes to a temporary file, and only the client is waited for.
    static func spawn(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString)").path
        defer { unlink(outputPath) }
        let pid = try start(arguments, outputPath: outputPath)
        let status = wait(for: pid)
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        // WIFEXITED / WEXITSTATUS are macros Swift does not import.
        return (status & 0x7F == 0 ? (status >> 8) & 0xFF : -1, output)
    }

    /// Starts a command with stdin on /dev/null and stdout and stderr into `outputPath`, with
    /// `environment` ("NAME=value") added to ours; returns its pid.
    static func start(_ arguments: [String], outputPath: String, environment: [String] = []) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, STDOUT_FILENO, STDERR_FILENO)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        // The additions first: getenv returns the first match. Preferences of its own, as in `init`.
        let environment = environment + ["XDG_CONFIG_HOME=\(freshConfigHome())"]
            + ProcessInfo.processInfo.environment.map { "\($0.key)=\($0.value)" }
        let envp = environment.map { strdup($0) } + [nil]
        defer { envp.forEach { free($0) } }
        // The test runner's threads block most signals and masks survive exec: start tmux (and
        // so the program under test) with none blocked and default handlers.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
        guard spawned == 0 else { throw TmuxError(message: "cannot run \(arguments[0]): \(String(cString: strerror(spawned)))") }
        return pid
    }

    /// Waits for `pid` to end; returns its raw wait status.
    static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        return status
    }
}

struct TmuxError: Error {
    let message: String
}

struct TmuxTimeout: Error {}

extension Tmux {
    /// A scenario file, in the temporary folder, of one flow called `title` with one step that
    /// lasts `duration`: a dashboard whose event log stays quiet once it started. The caller
    /// removes the file.
    static func oneFlowScenario(title: String, step: String, duration: String) throws -> URL {
        try scenarioFile("""
            name = "One flow"
            [[flow]]
            title = "\(title)"
              [[flow.step]]
              task = "\(step)"
              duration = "\(duration)"

            """)
    }

    /// A scenario file holding `toml`, in the temporary folder; the caller removes it.
    static func scenarioFile(_ toml: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "taskflow-scenario-\(UUID().uuidString).toml")
        try toml.write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
