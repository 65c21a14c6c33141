import Foundation
import Testing

/// `taskflow demo … --record FILE` and `taskflow replay FILE` with the built binary: a replay
/// prints exactly what the recorded headless run printed; a damaged recording plays what it can
/// and names its first bad line; hostile input ends with a one-line error, never a hang.
@Suite("Command line: record and replay", .timeLimit(.minutes(2)))
struct ReplayCommandTests {
    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-replay-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    private func path(_ name: String) -> String { folder.appending(path: name).path }

    /// Records `demo` headless (`--json` when `json`); returns what it printed and the file.
    private func record(_ demo: String, json: Bool = false) async throws -> (live: TaskflowProcess, file: String) {
        let file = path("\(demo)\(json ? "-json" : "").jsonl")
        let live = try await TaskflowProcess.run(
            ["demo", demo, "--headless", "--speed", "8", "--record", file] + (json ? ["--json"] : []))
        try #require(live.status == 0, "the recorded run: \(live.standardError)")
        return (live, file)
    }

    private func replay(_ file: String, json: Bool = false) async throws -> TaskflowProcess {
        try await TaskflowProcess.run(["replay", file, "--headless"] + (json ? ["--json"] : []))
    }

    /// Each demo with the title of its last flow, which completes whatever the timing.
    @Test(arguments: [("jobs", "Edit profile (12/12)"), ("rollback", "Audit")])
    func aReplayPrintsWhatTheRecordedRunPrinted(demo: String, lastFlow: String) async throws {
        for json in [false, true] {
            let (live, file) = try await record(demo, json: json)
            let replayed = try await replay(file, json: json)
            #expect(replayed.status == 0 && replayed.standardError.isEmpty, "\(replayed.standardError)")
            // The whole run was recorded: its last flow completed. (Not a line count: progress
            // is coalesced and the demo's cancel comes on the clock, so under load the same run
            // prints 30 lines where an idle machine prints 86.)
            let ended = live.standardOutput.split(separator: "\n").contains { line in
                json
                    ? line.contains("\"status\":\"completed\"") && line.contains("\"title\":\"\(lastFlow)\"")
                    : line.hasSuffix("\"\(lastFlow)\" completed")
            }
            #expect(ended, "\(live.standardOutput)")
            #expect(replayed.standardOutput == live.standardOutput, "\(demo)\(json ? " --json" : "")")
        }
    }

    @Test func aRecordingIsOwnerOnly() async throws {
        let (_, file) = try await record("rollback")
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aRecordingThatCannotBeCreatedIsOneLineBeforeAnythingRuns() async throws {
        let run = try await TaskflowProcess.run(["demo", "rollback", "--headless", "--record", path("missing/run.jsonl")])
        #expect(run.status == 2 && run.standardOutput.isEmpty)
        #expect(run.standardError == "taskflow: cannot record to \(path("missing/run.jsonl")): No such file or directory\n")
    }

    /// The recording of `rollback` and what its replay printed.
    private func recorded() async throws -> (lines: [String], printed: [String]) {
        let (live, file) = try await record("rollback")
        let text = try String(contentsOfFile: file, encoding: .utf8)
        return (text.split(separator: "\n").map(String.init), live.standardOutput.split(separator: "\n").map(String.init))
    }

    /// Replays `lines` written to a file (`end` after them); returns the run and the file.
    private func replay(lines: [String], end: String = "\n") async throws -> (TaskflowProcess, String) {
        let file = path("damaged-\(UUID().uuidString).jsonl")
        try (lines.joined(separator: "\n") + end).write(toFile: file, atomically: true, encoding: .utf8)
        return (try await replay(file), file)
    }

    @Test func aTruncatedRecordingPlaysWhatItCanAndNamesTheCutLine() async throws {
        let (lines, printed) = try await recorded()
        var cut = Array(lines.prefix(40))
        cut[39] = String(cut[39].prefix(25))
        let (run, file) = try await replay(lines: cut, end: "")
        #expect(run.status == 2)
        #expect(run.standardError == "\(file):40: line cut short (the recording ends mid-line)\n")
        let played = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(!played.isEmpty && played == Array(printed.prefix(played.count)), "a prefix of the recorded run's lines")
    }

    @Test func aCorruptedLineIsNamedAfterWhatCameBeforeItPlayed() async throws {
        let (lines, printed) = try await recorded()
        var damaged = lines
        damaged[29] = "{\"type\": \"flow\", \"time\": 1.5}"
        damaged[30] = "not json at all"
        let (run, file) = try await replay(lines: damaged)
        #expect(run.status == 2)
        #expect(run.standardError == "\(file):30: missing field 'event'\n")
        let played = run.standardOutput.split(separator: "\n").map(String.init)
        #expect(!played.isEmpty && played == Array(printed.prefix(played.count)))
    }

    @Test func aRecordingOfANewerMajorVersionIsRefusedNamingBoth() async throws {
        let (lines, _) = try await recorded()
        var newer = lines
        newer[0] = newer[0].replacingOccurrences(of: "\"protocol\":\"1.1\"", with: "\"protocol\":\"2.0\"")
        try #require(newer[0] != lines[0])
        let (run, file) = try await replay(lines: newer)
        #expect(run.status == 2 && run.standardOutput.isEmpty)
        #expect(run.standardError == "\(file):1: the recording speaks protocol 2.0, this taskflow 1.1\n")
    }

    @Test func aNewerMinorVersionsUnknownMessagesAreSkipped() async throws {
        let (lines, printed) = try await recorded()
        var newer = lines
        newer[0] = newer[0].replacingOccurrences(of: "\"protocol\":\"1.1\"", with: "\"protocol\":\"1.7\"")
        newer.insert("{\"type\": \"heartbeat\", \"time\": 0.5}", at: 5)
        let (run, _) = try await replay(lines: newer)
        #expect(run.status == 0 && run.standardError.isEmpty, "\(run.standardError)")
        #expect(run.standardOutput.split(separator: "\n").map(String.init) == printed)
    }

    @Test func anEmptyOrMissingFileIsOneLine() async throws {
        let empty = path("empty.jsonl")
        try Data().write(to: URL(filePath: empty))
        let run = try await replay(empty)
        #expect(run.status == 2 && run.standardError == "taskflow: \(empty) is empty: not a recording\n")
        let missing = try await replay(path("nothing.jsonl"))
        #expect(missing.status == 2)
        #expect(missing.standardError == "taskflow: cannot read \(path("nothing.jsonl")): No such file or directory\n")
    }

    @Test func aHundredMegabyteLineEndsAtTheLineLimit() async throws {
        let (lines, _) = try await recorded()
        let file = path("huge.jsonl")
        try Data((lines[0] + "\n").utf8).write(to: URL(filePath: file))
        let handle = try FileHandle(forWritingTo: URL(filePath: file))
        try handle.seekToEnd()
        let block = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        for _ in 0..<100 { try handle.write(contentsOf: block) }
        try handle.close()
        let run = try await replay(file)
        #expect(run.status == 2)
        #expect(run.standardError == "\(file):2: line longer than 1048576 bytes\n")
    }

    @Test func binaryGarbageIsOneLine() async throws {
        var generator = SystemRandomNumberGenerator()
        let garbage = Data((0..<(256 * 1024)).map { _ in UInt8.random(in: 0...255, using: &generator) })
        let file = path("garbage.bin")
        try garbage.write(to: URL(filePath: file))
        let run = try await replay(file)
        #expect(run.status == 2 && run.standardOutput.isEmpty)
        #expect(run.standardError.hasPrefix("\(file):1: ") && run.standardError.filter { $0 == "\n" }.count == 1, "\(run.standardError)")
    }
}
