import Foundation
import Testing

/// What a person sees in a real terminal when a writer waits too long, and when they turn the
/// wheel over the event log. Every wait is on the screen's content.
@Suite(
    "End to end: warnings and the wheel in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct WarningsEndToEndTests {
    @Test func aWriterWaitingPastItsThresholdIsCountedInTheHeaderAndNamedInThePanel() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-warn-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let config = folder + "/config.toml", scenario = folder + "/starve.toml"
        try "[warnings]\nwriter-wait-seconds = 1\n".write(toFile: config, atomically: true, encoding: .utf8)
        // A reader holding the lock for ten minutes, a writer queued behind it: the warning stays
        // until the test quits, however late a loaded machine looks.
        try """
            name = "Starved writer"
            [[flow]]
            title = "Read the archive"
            access = "read"
              [[flow.step]]
              task = "Scan"
              duration = "10m"
            [[flow]]
            title = "Sync settings"
            start = "200ms"
              [[flow.step]]
              task = "Upload"
              duration = "1s"

            """.write(toFile: scenario, atomically: true, encoding: .utf8)
        let tmux = try Tmux("warnings", arguments: "run '\(scenario)' --config '\(config)'")
        defer { tmux.close() }
        let screen = try await tmux.waitFor("the starved writer's warning") { screen in
            screen.contains("⚠ ") && screen.contains("writer starved of the lock")
        }
        #expect(screen.contains("Sync settings"), "the panel names the writer\n\(screen)")
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    @Test func theWheelOverTheEventLogScrollsItBack() async throws {
        // At its own pace: faster, the tour could have written its last line before a slow
        // machine's first capture, and the top line would never change after it.
        let tmux = try Tmux("wheel", arguments: "demo tour", environment: "TERM=xterm-256color")
        defer { tmux.close() }
        // The log's top line changes once there are more lines than it shows: then it can scroll.
        let first = try await tmux.waitFor("the event log") { Self.logTop(in: $0) != nil }
        let top = try #require(Self.logTop(in: first))
        let full = try await tmux.waitFor("more lines than the log shows") { Self.logTop(in: $0).map { $0.line != top.line } ?? false }
        let row = try #require(Self.logTop(in: full)).row
        // Wheel up (button 64) over the log, as xterm reports it in SGR 1006 (1-based).
        try tmux.send("-l", "\u{1B}[<64;20;\(row + 1)M")
        try await tmux.waitFor("the log scrolled back") { $0.contains("newer line(s) below (PgDn)") }
        try tmux.send("q", "q")
        try await tmux.expectExit(status: 0)
    }

    /// The event log's first line of text and its row on the screen.
    private static func logTop(in screen: String) -> (line: String, row: Int)? {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard let title = lines.firstIndex(where: { $0.contains("Event log") }), lines.indices.contains(title + 1) else { return nil }
        let line = String(lines[title + 1])
        return line.contains("s  ") ? (line, title + 1) : nil
    }
}
