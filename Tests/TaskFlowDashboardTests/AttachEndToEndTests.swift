import Foundation
import Testing
import TaskFlowTestSupport

/// `taskflow attach` in a real terminal (tmux) on a served program (`console-test-program`),
/// driven with keys like a user; the program's own record says what happened there.
@Suite(
    "End to end: taskflow attach in tmux", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct AttachEndToEndTests {
    /// A running `console-test-program` on a fresh socket, once it serves.
    private struct Program {
        let folder: String
        let process = Process()
        /// Where its socket is: `taskflow/` in `folder` is where a user's programs are when
        /// `XDG_RUNTIME_DIR` is `folder`.
        var socket: String { "\(folder)/taskflow/p.sock" }
        var record: String { "\(folder)/record" }

        init(title: String = "Console test") async throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("attach-e2e-\(UUID().uuidString.prefix(8))").path
            try FileManager.default.createDirectory(
                atPath: "\(folder)/taskflow", withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            process.executableURL = URL(fileURLWithPath: Tmux.binary).deletingLastPathComponent().appendingPathComponent("console-test-program")
            process.arguments = [socket, record, title]
            process.standardError = FileHandle.nullDevice
            try process.run()
            try await waitForRecord("serving")
        }

        /// Waits until the program's record has `line`.
        func waitForRecord(_ line: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
            let written = await eventually(within: 40) {
                ((try? String(contentsOfFile: record, encoding: .utf8)) ?? "").split(separator: "\n").contains { $0 == line }
            }
            let text = (try? String(contentsOfFile: record, encoding: .utf8)) ?? ""
            try #require(written, "the program's record says \(line); it says:\n\(text)", sourceLocation: sourceLocation)
        }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(atPath: folder)
        }
    }

    @Test func theFlowShowsCancelActsInTheProgramAndQuitLeavesItRunning() async throws {
        let program = try await Program()
        defer { program.stop() }
        let tmux = try Tmux("attach-cancel", arguments: "attach '\(program.socket)'")
        defer { tmux.close() }
        try await tmux.waitFor("the program's flow, waiting") { $0.contains("Hold the door") && $0.contains("Wait to be cancelled") }
        // The start-up's row comes first: the program's flow is the second.
        try tmux.send("j", "c")
        try await program.waitForRecord("flow ended: cancelled")
        try await program.waitForRecord("reverted")
        try await tmux.waitFor("the cancel's reply and the flow's end") { $0.contains("cancel #1: done") || $0.contains("cancelled") }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
        #expect(program.process.isRunning, "q left the program running")
    }

    @Test func theProgramExitingEndsAttachWithOneLineAndStatusZero() async throws {
        let program = try await Program()
        defer { program.stop() }
        let tmux = try Tmux("attach-exit", arguments: "attach '\(program.socket)'")
        defer { tmux.close() }
        try await tmux.waitFor("the program's flow") { $0.contains("Hold the door") }
        kill(program.process.processIdentifier, SIGKILL)
        let screen = try await tmux.waitFor("attach's last line") { $0.contains("EXIT=") }
        #expect(screen.contains("taskflow: console-test-program (pid \(program.process.processIdentifier)) exited"), "screen:\n\(screen)")
        try await tmux.expectExit(status: 0)
    }

    @Test func listPrintsATabSeparatedLinePerProgramWithItsTitleEscaped() async throws {
        let program = try await Program(title: "Tabs\tand\nlines")
        defer { program.stop() }
        let run = try await listUntilFound(folder: program.folder)
        try #require(run.status == 0, "stderr: \(run.standardError)")
        let lines = run.standardOutput.split(separator: "\n", omittingEmptySubsequences: false)
        try #require(lines.count == 3, "a header, one program, a final newline:\n\(run.standardOutput)")
        #expect(lines[0] == "PID\tPROGRAM\tTITLE\tSTARTED\tFLOWS RUNNING")
        let fields = lines[1].split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        try #require(fields.count == 5, "five columns: \(lines[1])")
        #expect(fields[0] == "\(program.process.processIdentifier)")
        #expect(fields[1] == "console-test-program")
        #expect(fields[2] == #"Tabs\u{9}and\u{A}lines"#, "the title's tab and newline are shown, not obeyed")
        #expect((try? Date.ISO8601FormatStyle().parse(fields[3])) != nil, "started: \(fields[3])")
        #expect(fields[4] == "1", "its one flow is running")
        #expect(lines[2].isEmpty)
    }

    /// `taskflow attach --list` with `folder` as `XDG_RUNTIME_DIR`, run again until it lists a
    /// program (at most a minute): it gives each console two seconds to answer, and on a loaded
    /// machine a first try can find none (status 2).
    private func listUntilFound(folder: String) async throws -> TaskflowProcess {
        let list = { try await TaskflowProcess.run(["attach", "--list"], environment: ["XDG_RUNTIME_DIR": folder]) }
        var run = try await list()
        _ = await eventually(within: 60) {
            if run.status != 0, let again = try? await list() { run = again }
            return run.status == 0
        }
        return run
    }

    @Test func aPathThatIsNotASocketIsRefusedWithOneLineAndStatusTwo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-socket-\(UUID().uuidString)").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("hello".utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let run = try await TaskflowProcess.run(["attach", file])
        #expect(run.status == 2)
        #expect(run.standardError == "taskflow: cannot attach: \(file) is not a console's socket\n")
        #expect(run.standardOutput.isEmpty, "the terminal is never touched")
    }
}
