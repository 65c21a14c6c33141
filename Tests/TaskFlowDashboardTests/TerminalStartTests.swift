import Testing

/// Without a terminal the dashboard can drive, taskflow refuses before touching it: one line
/// saying what is wrong and what to do, status 2 (bad input), the terminal as it was.
@Suite(
    "Terminal start-up refusals", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the terminal tests need it (apt-get install tmux)"))
struct TerminalStartTests {
    @Test func anUnsetTermIsRefused() async throws {
        let tmux = try Tmux("term-unset", environment: "unset TERM;")
        defer { tmux.close() }
        try await tmux.expectExit(status: 2)
        #expect(tmux.capture().contains("taskflow: TERM is not set: cannot drive the terminal (set TERM, e.g. TERM=xterm-256color, or use --headless)"))
    }

    /// `dumb` has no cursor addressing: drawing would give one garbled line.
    @Test func aTerminalThatCannotMoveItsCursorIsRefusedWithAHintAtHeadless() async throws {
        let tmux = try Tmux("term-dumb", environment: "TERM=dumb")
        defer { tmux.close() }
        try await tmux.expectExit(status: 2)
        #expect(tmux.capture().contains("taskflow: terminal type 'dumb' (TERM) cannot move the cursor, so the dashboard cannot be drawn (use --headless"))
    }

    @Test func anInputThatIsNotATerminalIsRefused() async throws {
        let tmux = try Tmux("stdin", arguments: "demo built-in </dev/null")
        defer { tmux.close() }
        try await tmux.expectExit(status: 2)
        #expect(tmux.capture().contains("taskflow: standard input is not a terminal: keys cannot be read (use --headless)"))
    }
}
