import Foundation
import Testing

/// The mouse in a real terminal: tmux stands for the terminal, and the test types the SGR 1006
/// reports an xterm sends for a click (`ESC [ < 0 ; column ; row M`, then `m` on release), with
/// TERM=xterm-256color, whose terminfo tells ncurses to ask for and decode that format. Every wait
/// is on the screen's content.
@Suite(
    "End to end: the mouse in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct MouseEndToEndTests {
    @Test func aClickSelectsAFlowAndAClickOnAHeadingSortsThenInverts() async throws {
        let tmux = try Tmux("mouse", environment: "TERM=xterm-256color")
        defer { tmux.close() }
        let screen = try await tmux.waitFor("Build report listed") { Self.line(containing: "Build report", in: $0) != nil }
        let row = try #require(Self.line(containing: "Build report", in: screen))
        try click(tmux, x: 20, y: row)
        try await tmux.waitFor("Build report in the detail pane") { $0.contains("Build report (") }
        let heading = try #require(Self.column(of: "title", onLine: 2, in: screen))
        try click(tmux, x: heading + 1, y: 2)
        try await tmux.waitFor("the list sorted by title") { $0.contains("title▲") }
        try click(tmux, x: heading + 1, y: 2)
        try await tmux.waitFor("the sort inverted") { $0.contains("title▼") }
    }

    /// A press and a release of the first button at column `x`, row `y` (from 0), as xterm
    /// reports them in SGR 1006 (from 1).
    private func click(_ tmux: Tmux, x: Int, y: Int) throws {
        try tmux.send("-l", "\u{1B}[<0;\(x + 1);\(y + 1)M\u{1B}[<0;\(x + 1);\(y + 1)m")
    }

    /// The row, in the flow list (the screen's first lines), that shows `text`.
    private static func line(containing text: String, in screen: String) -> Int? {
        screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(14).firstIndex { $0.contains(text) && $0.contains("#") }
    }

    /// The column where `text` starts on line `y`.
    private static func column(of text: String, onLine y: Int, in screen: String) -> Int? {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.indices.contains(y), let range = lines[y].range(of: text) else { return nil }
        return lines[y].distance(from: lines[y].startIndex, to: range.lowerBound)
    }
}
