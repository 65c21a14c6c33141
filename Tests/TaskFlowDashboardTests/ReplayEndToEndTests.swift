import Foundation
import Testing

/// `taskflow replay` in a real terminal (tmux): the recorded flows, the time bar, its keys,
/// and the keys that would act on the program refused.
@Suite(
    "End to end: taskflow replay in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct ReplayEndToEndTests {
    @Test func aReplayShowsTheFlowsAndTheTimeBarAndIsReadOnly() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "replay-\(UUID().uuidString).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let recorded = try await TaskflowProcess.run(["demo", "rollback", "--headless", "--speed", "8", "--record", file])
        try #require(recorded.status == 0, "\(recorded.standardError)")
        let tmux = try Tmux("replay", arguments: "replay '\(file)'")
        defer { tmux.close() }
        // Playing, or already paused at the end: the recording lasts about a second, which a
        // loaded machine may spend before the first look at the screen.
        try await tmux.waitFor("the time bar") { ($0.contains("replay  playing") || $0.contains("replay  paused")) && $0.contains("event ") }
        try tmux.send("End")
        let end = try await tmux.waitFor("the end, paused") { $0.contains("replay  paused") && $0.contains("Audit") }
        #expect(end.contains("Migrate library") && end.contains("cancelled"), "the recorded flows:\n\(end)")
        try tmux.send("Home")
        try await tmux.waitFor("the start: no flow yet") { !$0.contains("Migrate library") && $0.contains("event 0/") }
        try tmux.send("Right", "Right", "Right")
        try await tmux.waitFor("the first flow, an event at a time") { $0.contains("Rename shelf") }
        try tmux.send("c")
        try await tmux.waitFor("the read-only notice") { $0.contains("replay: read-only") }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
    }
}
