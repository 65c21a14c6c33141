import Foundation
import Testing

/// taskflow starts through a boot: the dashboard shows it as the first flow, keys
/// typed meanwhile are held and acted on in order once it is over, and a failed step ends the
/// program with the terminal restored, naming the step.
@Suite(
    "End to end: the start-up in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct StartUpEndToEndTests {
    @Test func keysTypedDuringTheStartUpLandOnTheRightFlowOnceItIsOver() async throws {
        // A scenario file: its runner submits the flows from a task of its own, after the
        // start-up's last step began; the held keys once acted before they were listed.
        let file = FileManager.default.temporaryDirectory.appending(path: "slow-start-\(UUID().uuidString).toml")
        let readers = ["First reader", "Second reader", "Third reader"].map { title in
            "[[flow]]\ntitle = \"\(title)\"\naccess = \"read\"\n  [[flow.step]]\n  task = \"Read\"\n  duration = \"20s\"\n"
        }
        try ("name = \"Slow start\"\n" + readers.joined()).write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        // 10 s: a loaded machine must still see the start-up while it runs (beside the store's
        // suite on two cores, this test's polls were seen to wait over 5 s for a thread).
        let tmux = try Tmux("start-up", arguments: "run '\(file.path)' --boot-delay 10")
        defer { tmux.close() }
        // #0 is selected: two rows down is the scenario's second flow.
        let booting = try await tmux.waitFor("the start-up as the first flow", thenSend: ["j", "j", "c"]) { screen in
            screen.contains("#0   R Start taskflow               running") && screen.contains("(--boot-delay)")
        }
        #expect(!booting.contains("First reader"), "no flow before the start-up is over")
        // The held keys act once the flows are listed; #0's own completion reaches the screen
        // through the event stream, possibly a frame later: wait for both.
        let after = try await tmux.waitFor("Second reader cancelled, the start-up completed") { screen in
            Self.row("Second reader", in: screen)?.contains("cancelled") == true
                && screen.contains("#0   R Start taskflow               completed")
        }
        #expect(Self.row("First reader", in: after)?.contains("cancel") == false, "the cancel landed on #2, not elsewhere")
        try tmux.send("Home")
        let steps = ["Load theme", "Load scenario", "Start the flows"]
        try await tmux.waitFor("the start-up's steps") { screen in
            screen.contains("┌─ #0 Start taskflow (read) — completed") && steps.allSatisfy { screen.contains("bg \($0)") }
        }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    /// The flow list's row of the flow titled `title`, if the screen shows it.
    private static func row(_ title: String, in screen: String) -> String? {
        screen.split(separator: "\n").first { $0.contains(title) && $0.contains("#") }.map(String.init)
    }

    @Test func aFailedStepEndsTaskflowWithTheTerminalRestoredAndNamesTheStep() async throws {
        let theme = FileManager.default.temporaryDirectory.appending(path: "bad-theme-\(UUID().uuidString).toml")
        try "title = {}\n[status]\nrunning = { fg = \"gren\" }\n".write(to: theme, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: theme) }
        let tmux = try Tmux("start-up-fails", arguments: "demo built-in --theme '\(theme.path)'")
        defer { tmux.close() }
        try await tmux.expectExit(status: 2)
        let screen = tmux.capture()
        #expect(screen.contains("unknown colour \"gren\""), "\(screen)")
        #expect(screen.contains("taskflow: start-up failed at \"Load theme\""), "\(screen)")
    }

    /// The problem a step meets while the dashboard holds the screen is said after it gave the
    /// screen back: it used to be printed under the dashboard, which drew over it, leaving only
    /// "taskflow: ExitCode(rawValue: 2)".
    @Test func aStoreThatIsNotAStoreIsNamedAfterTheScreenIsRestored() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "notastore-\(UUID().uuidString).txt")
        try "hello\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let tmux = try Tmux("start-up-store", arguments: "demo outbox --store '\(file.path)'")
        defer { tmux.close() }
        try await tmux.expectExit(status: 2)
        let screen = tmux.capture()
        // A long temporary path may wrap the line: read the pane as one string.
        let text = screen.replacingOccurrences(of: "\n", with: "")
        let problem = "taskflow: \(file.path): not a TaskFlow job store (not an SQLite database); left untouched"
        #expect(text.components(separatedBy: problem).count == 2, "said once: \(screen)")
        #expect(text.contains("\(problem)taskflow: start-up failed at \"Load scenario\""), "then the step: \(screen)")
        #expect(!screen.contains("ExitCode"), "\(screen)")
    }
}
