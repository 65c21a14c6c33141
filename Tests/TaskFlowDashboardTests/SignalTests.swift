import Foundation
import TaskFlowTestSupport
import Testing

/// Every signal whose default action ends the program ends it with the terminal as it was and
/// the shell seeing 128 + its number: the loop ends gracefully on the ones a program
/// can survive, the crash handler restores and re-raises the rest — also when sent with kill,
/// after which Swift's backtracer would otherwise return and the program draw on.
@Suite(
    "Signals end taskflow with the terminal restored", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the terminal tests need it (apt-get install tmux)"))
struct SignalTests {
    @Test(arguments: [SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE, SIGINT])
    func aSignalRestoresTheTerminalAndExitsWith128PlusItsNumber(signal: Int32) async throws {
        try await endByASignal(signal)
    }

    /// The crash signals go through Swift's backtracer, which aborts inside ThreadSanitizer's
    /// runtime when the binary under test is built with `--sanitize=thread` (a tooling clash:
    /// `CHECK failed tsan_rtl.cpp`, no race reported), so they run in the plain build only.
    @Test(.disabled(if: Sanitizers.threadIsActive, "the backtracer and TSan's runtime clash on crash signals"),
          arguments: [SIGQUIT, SIGSEGV, SIGABRT])
    func aCrashSignalRestoresTheTerminalAndExitsWith128PlusItsNumber(signal: Int32) async throws {
        try await endByASignal(signal)
    }

    private func endByASignal(_ signal: Int32) async throws {
        let modes = FileManager.default.temporaryDirectory.appendingPathComponent("stty-\(UUID().uuidString)").path
        defer { unlink("\(modes).before"); unlink("\(modes).after") }
        // Swift's backtracer, on for a crash, would wait for a key on a terminal.
        let tmux = try Tmux("signal-\(signal)", shellCommand: """
            stty -g > '\(modes).before'; SWIFT_BACKTRACE=interactive=no LANG=C.UTF-8 '\(Tmux.binary)' demo built-in; \
            echo EXIT=$?; stty -g > '\(modes).after'; stty -a; sleep 3600
            """)
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Flows") }
        let pid = try #require(tmux.programPID)
        #expect(kill(pid, signal) == 0)
        try await tmux.expectExit(status: 128 + signal)
        let before = try String(contentsOfFile: "\(modes).before", encoding: .utf8)
        #expect(try String(contentsOfFile: "\(modes).after", encoding: .utf8) == before, "stty -g after the signal")
    }

    /// A dashboard whose terminal is gone ends, even when the parent told it to ignore SIGHUP
    /// (`nohup`): nobody can see it or type `q` any more, and it must not run on unseen.
    @Test func aClosedTerminalEndsTheDashboardEvenWithHangupIgnored() async throws {
        let tmux = try Tmux("hangup", shellCommand: "trap '' HUP; LANG=C.UTF-8 '\(Tmux.binary)' demo built-in; sleep 3600")
        defer { tmux.close() }
        try await tmux.waitFor("the dashboard") { $0.contains("Flows") }
        let pid = try #require(tmux.programPID)
        tmux.close()
        #expect(await eventually { kill(pid, 0) != 0 }, "the dashboard ended with its terminal")
    }
}

/// Signals on a headless run: no terminal, so no tmux needed.
@Suite struct HeadlessSignalTests {
    /// Headless, no terminal: SIGQUIT, which Swift's backtracer handles and returns from, still
    /// ends the program, by that signal.
    @Test(.disabled(if: Sanitizers.threadIsActive, "the backtracer and TSan's runtime clash on crash signals"))
    func sigquitEndsAHeadlessRun() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("quit-\(UUID().uuidString)").path
        defer { unlink(output) }
        let pid = try Tmux.start(
            [Tmux.binary, "demo", "built-in", "--headless", "--speed", "0.1"], outputPath: output,
            environment: ["SWIFT_BACKTRACE=interactive=no"])
        try #require(await eventually {
            ((try? FileManager.default.attributesOfItem(atPath: output)[.size] as? Int) ?? 0) > 0
        }, "the first event printed")
        #expect(kill(pid, SIGQUIT) == 0)
        let status = try await offThePool { Tmux.wait(for: pid) }
        // WIFSIGNALED / WTERMSIG are macros Swift does not import.
        #expect(status & 0x7F == SIGQUIT, "wait status \(status)")
    }
}

/// Signals a parent ignores stay ignored: `nohup taskflow --headless` survives its terminal
/// closing (SIGHUP), and an ignored SIGUSR1 or SIGPIPE does not end the run either.
@Suite struct IgnoredSignalTests {
    @Test func signalsTheParentIgnoredDoNotEndTheRun() async throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("ignored-\(UUID().uuidString)").path
        defer { unlink(output) }
        let result = try await TaskflowShell.run("""
            trap '' HUP USR1 PIPE
            \(TaskflowShell.binary) demo built-in --headless --speed 20 > '\(output)' &
            pid=$!
            while [ ! -s '\(output)' ]; do sleep 0.05; done
            kill -HUP $pid; kill -USR1 $pid; kill -PIPE $pid
            wait $pid; echo "status=$?"
            """)
        // A headless run ends with 0 only when its scenario has ended: no signal ended it.
        #expect(result.output == "status=0\n")
    }
}

extension Tmux {
    /// A session running `shellCommand` as it is, for tests that need more than the program
    /// and its exit status around it.
    init(_ name: String, shellCommand: String) throws {
        self.name = name
        let (status, output) = try run(["new-session", "-d", "-s", name, "-x", "120", "-y", "40", shellCommand])
        guard status == 0 else { throw TmuxError(message: "tmux new-session failed: \(output)") }
    }
}
