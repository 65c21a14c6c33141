import Foundation
import Testing
import TaskFlowTestSupport

/// The real binary in a real terminal (tmux), driven with keys like a user.
@Suite(
    "End to end: taskflow in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct EndToEndTests {
    @Test func flowsRunCancelRevertsLastFirstAndUndoAfterConfirmation() async throws {
        let tmux = try Tmux("cancel-undo")
        defer { tmux.close() }
        try await tmux.waitFor("the first flow running") { $0.contains("Import books") && $0.contains("running") }
        // Batches 1 and 2 done, and the flow not yet over: batches 3 to 5 leave the key six seconds.
        // On the flow's own row: the log's lines about batches 3 to 5 stay in view after the
        // flow completed, as the demo goes quiet then.
        try await tmux.waitFor("Migrate archive running batch 3, 4 or 5", thenSend: ["/", "Migrate", "Enter", "c"]) { screen in
            screen.split(separator: "\n").contains { row in
                row.contains("Migrate archive") && row.contains("running")
                    && ["batch 3/6", "batch 4/6", "batch 5/6"].contains { row.contains($0) }
            }
        }
        // Collect the log's "reverted" lines as they scroll by, in the order they appear.
        let seen = Recorder<String>()
        try await tmux.waitFor("the migration cancelled") { screen in
            for line in screen.split(separator: "\n") where line.contains("Migrate archive\" ◂ reverted") {
                let step = line.components(separatedBy: "\"").dropLast().last ?? ""
                if !seen.all.contains(step) { seen.record(step) }
            }
            return screen.contains("Migrate archive (write) — cancelled")
        }
        let reverted = seen.all
        // Which batch was running when `c` arrived depends on timing; the order must not. The log
        // scrolls, and a loaded machine samples it seldom, so it shows the order of the reverts it
        // caught; the detail pane shows that every batch done before the cancel was reverted.
        let batches = reverted.dropLast().compactMap { $0.split(separator: " ").last?.first?.wholeNumberValue }
        #expect(reverted.last == "Open migration panel", "reverted: \(reverted)")
        #expect(batches == batches.sorted(by: >) && batches.last == 1, "batches reverted last-first: \(reverted)")
        let detail = try await tmux.waitFor("the migration's steps") { $0.contains("Copy batches") && $0.contains("batch 1/6") }
        let revertedBatches = detail.split(separator: "\n").filter { $0.contains(" batch ") && $0.contains("reverted") }
        #expect(revertedBatches.count >= 2, "batches 1 and 2 ran before `c` and were reverted:\n\(detail)")
        // Import books by its title, as the migration above, not by its place in the list.
        try tmux.send("Escape", "/", "Import", "Enter", "u")
        try await tmux.waitFor("the undo question") { $0.contains("Undo #1 \"Import books\"?") }
        try tmux.send("y")
        let undone = try await tmux.waitFor("Import books undone") { $0.contains("Import books (write) — undone") }
        #expect(undone.contains("Add 3 books") && undone.contains("reverted"))
        try await tmux.waitFor("every flow finished") { screen in
            // The header counts rolling-back flows ("rolling back N", or "back N" when the
            // counters are short) only while there are some.
            let header = screen.prefix { $0 != "\n" }
            let idle = header.contains("waiting 0 running 0") || header.contains("wait 0 run 0")
            return idle && !header.contains(" back ")
        }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
    }

    @Test func resizeBelowTheMinimumShowsAMessageAndTheDashboardComesBack() async throws {
        let tmux = try Tmux("resize")
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Flows") }
        try tmux.resize(width: 50, height: 12)
        try await tmux.waitFor("the too-small message") { $0.contains("Terminal too small: 50x12") }
        try tmux.resize(width: 120, height: 40)
        try await tmux.waitFor("the dashboard back") { $0.contains("Flows") && $0.contains("Event log") }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    @Test func quitWithAFlowRunningRollsBackThenExitsZero() async throws {
        // A copy done, the next under way for half a minute, and the done one's revert taking
        // fifteen seconds: the rollback stays on screen long enough to be seen on a loaded machine
        // (five were once not enough).
        let file = try Tmux.scenarioFile("""
            name = "Quit"
            [[flow]]
            title = "Migrate archive"
              [[flow.step]]
              task = "Copy batch 1"
              duration = "100ms"
              revert = "15s"
              [[flow.step]]
              task = "Copy batch 2"
              duration = "30s"

            """)
        defer { try? FileManager.default.removeItem(at: file) }
        let tmux = try Tmux("quit", arguments: "run '\(file.path)'")
        defer { tmux.close() }
        try await tmux.waitFor("Migrate archive on batch 2") { $0.contains("Copy batch 2") && $0.contains("running") }
        try tmux.send("q")
        try await tmux.waitFor("the rollback under way before the exit") {
            $0.contains("quitting: rolling back") && $0.contains("Migrate archive\" ◂ revert")
        }
        try await tmux.expectExit(status: 0)
    }

    /// Ctrl-Z stops taskflow with the terminal restored, like any program a shell suspends;
    /// `fg` brings the dashboard back, redrawn, and it goes on where it was.
    @Test func ctrlZSuspendsWithTheTerminalRestoredAndFgRedraws() async throws {
        let scenario = try Tmux.longFlowScenario()
        defer { try? FileManager.default.removeItem(at: scenario) }
        let tmux = try Tmux("suspend", arguments: "run '\(scenario.path)'", jobControl: true)
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Import books") }
        // Ctrl-Z comes as a key while the dashboard runs, which stops the whole job from the
        // loop (once, a SIGTSTP the terminal sent while ncurses painted was lost).
        #expect(try tmux.terminalModes().contains("susp = <undef>"), "the terminal's suspend character is off")
        try tmux.send("C-z")
        try await tmux.waitFor("the shell's prompt after the stop") { $0.contains("Stopped") }
        #expect(try tmux.terminalModes().contains("susp = ^Z"), "the shell's suspend character while stopped")
        // One line of its own, which the typed command cannot match (a capture trims trailing
        // spaces, and the command line itself holds "echo").
        try tmux.run(["send-keys", "-t", tmux.name, "-l", "stty -a | grep -oE -- ' -?(icanon|echo) ' | tr -d ' ' | paste -sd, - | sed 's/^/MODES=/'\n"])
        let shell = try await tmux.waitFor("the terminal modes") { Self.modes(in: $0) != nil }
        #expect(Self.modes(in: shell) == "icanon,echo", "canonical mode and echo while stopped:\n\(shell)")
        #expect(tmux.variable("alternate_on") == "0", "the main screen while stopped")
        try await tmux.bringBackWithFg()
        #expect(try tmux.terminalModes().contains("susp = <undef>"), "the suspend character taken again after fg")
        try await tmux.quitAfterFg()
    }

    /// Ctrl-Z stops the whole job, as the terminal's own SIGTSTP does: taskflow run by a script
    /// stops with the script, and the shell gets its prompt back (stopping taskflow alone left
    /// the shell waiting for a script that never stopped).
    @Test func ctrlZStopsTheWholeJobOfAScriptRunningTaskflow() async throws {
        let scenario = try Tmux.longFlowScenario()
        defer { try? FileManager.default.removeItem(at: scenario) }
        let tmux = try Tmux(
            "suspend-script", program: "/bin/sh", arguments: "-c '\"\(Tmux.binary)\" run \"\(scenario.path)\"; true'",
            jobControl: true)
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Import books") }
        try tmux.send("C-z")
        try await tmux.waitFor("the shell's prompt after the stop") { $0.contains("Stopped") }
        try await tmux.bringBackWithFg()
        try await tmux.quitAfterFg()
    }

    /// A SIGTSTP sent with `kill` suspends the dashboard like Ctrl-Z, through the loop's
    /// signal watcher, with the terminal given back; `fg` brings it back.
    @Test func aStopSignalSuspendsWithTheTerminalRestored() async throws {
        let scenario = try Tmux.longFlowScenario()
        defer { try? FileManager.default.removeItem(at: scenario) }
        let tmux = try Tmux("suspend-signal", arguments: "run '\(scenario.path)'", jobControl: true)
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Import books") }
        let pid = try #require(tmux.programPID)
        #expect(kill(pid, SIGTSTP) == 0)
        try await tmux.waitFor("the shell's prompt after the stop") { $0.contains("Stopped") }
        #expect(try tmux.terminalModes().contains("susp = ^Z"), "the shell's modes while stopped")
        #expect(tmux.variable("alternate_on") == "0", "the main screen while stopped: taskflow gave it back")
        try await tmux.bringBackWithFg()
        try await tmux.quitAfterFg()
    }

    /// The `MODES=` line a shell command printed: the terminal's canonical mode and echo flags.
    private static func modes(in screen: String) -> String? {
        screen.split(separator: "\n").lazy.map { $0.trimmingCharacters(in: .whitespaces) }
            .first { $0.hasPrefix("MODES=") }.map { String($0.dropFirst("MODES=".count)) }
    }

    @Test func sigtermRestoresTheTerminalAndExits143() async throws {
        let tmux = try Tmux("sigterm")
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Flows") }
        let pid = try #require(tmux.programPID)
        #expect(kill(pid, SIGTERM) == 0)
        try await tmux.expectExit(status: 128 + SIGTERM)
    }

    @Test func unknownTerminalIsAOneLineError() async throws {
        let tmux = try Tmux("term", environment: "TERM=no-such-terminal")
        defer { tmux.close() }
        let screen = try await tmux.waitFor("the exit") { $0.contains("EXIT=") }
        #expect(screen.contains("taskflow: unknown terminal type 'no-such-terminal'"))
        #expect(screen.contains("EXIT=2"))
    }

    @Test func noColorLeavesOnlyAttributes() async throws {
        let tmux = try Tmux("no-color", environment: "NO_COLOR=1")
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Flows") }
        let screen = tmux.captureWithEscapes()
        // Every SGR parameter in the capture: 30-38, 40-48, 90-97 and 100-107 would set a colour.
        let parameters = screen.matches(of: /\e\[([0-9;]*)m/).flatMap { $0.1.split(separator: ";").compactMap { Int($0) } }
        let colours = parameters.filter { (30...38).contains($0) || (40...48).contains($0) || (90...107).contains($0) }
        #expect(colours.isEmpty, "no colour escape under NO_COLOR: \(colours)")
        #expect(parameters.contains(7), "the selection is still shown in reverse video")
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    @Test func withoutASubcommandTheTourPlays() async throws {
        let tmux = try Tmux("tour", arguments: "")
        defer { tmux.close() }
        try await tmux.waitFor("the tour's header") { $0.contains("TaskFlow · Tour") }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }
}

/// The shell side of a suspended dashboard, for the tests that stop it (the pane runs an
/// interactive shell: `Tmux(_:jobControl:)`).
extension Tmux {
    /// A scenario file with one flow, "Import books", whose step lasts ten minutes: it is still
    /// running whenever a test quits, so the first `q` starts a rollback and the second quits at
    /// once, however slow the machine. (The built-in demo ends twenty seconds in, on the wall
    /// clock, and the first `q` then exits alone.)
    static func longFlowScenario() throws -> URL {
        try oneFlowScenario(title: "Import books", step: "Copy books", duration: "10m")
    }

    /// `fg`, after `clear` so that the exit check reads only what is printed after the exit;
    /// returns once the dashboard is drawn again.
    func bringBackWithFg(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try run(["send-keys", "-t", name, "-l", "clear; fg\n"])
        try await waitFor("the dashboard redrawn", sourceLocation: sourceLocation) {
            $0.contains("┌─ Flows") && $0.contains("Import books")
        }
    }

    /// `q q`, then the exit's checks. A stopped job's command list is abandoned by the shell:
    /// after `fg`, the exit status is fg's, printed here.
    func quitAfterFg(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try send("q", "q")
        try await waitFor("the prompt after the exit", sourceLocation: sourceLocation) { $0.contains("quit at once") }
        try run(["send-keys", "-t", name, "-l", "echo EXIT=$?; stty -a\n"])
        try await expectExit(status: 0, sourceLocation: sourceLocation)
    }
}
