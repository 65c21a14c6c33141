import DashboardKit
import Foundation
import Testing

/// The `taskflow` command line without a terminal: listing, checking, refusing bad input.
@Suite struct CommandLineTests {
    /// The package's demo folder, found from this file's place in the package.
    static let demoFolder = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "demo", directoryHint: .isDirectory)

    @Test func everyDemoIsListedAndPassesCheck() async throws {
        let list = try await TaskflowProcess.run(["demo"])
        #expect(list.status == 0)
        #expect(list.standardOutput.contains("built-in"))
        let files = try FileManager.default.contentsOfDirectory(at: Self.demoFolder, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "toml" }
        #expect(files.count >= 5)
        for file in files {
            let name = file.deletingPathExtension().lastPathComponent
            #expect(list.standardOutput.contains(name), "\(name) is listed")
            let check = try await TaskflowProcess.run(["check", file.path])
            #expect(check.status == 0, "\(name): \(check.standardError)")
            #expect(check.standardOutput.contains("flows:") && check.standardOutput.contains("steps:"), "\(name)")
        }
    }

    @Test func anUnknownDemoNamesTheOnesThatExist() async throws {
        let result = try await TaskflowProcess.run(["demo", "no-such-demo"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("taskflow: no demo named 'no-such-demo'; the demos are: "))
        #expect(result.standardError.contains("tour") && result.standardError.contains("built-in"))
        #expect(result.standardError.split(separator: "\n").count == 1, "one line: \(result.standardError)")
    }

    @Test func aMissingScenarioFileIsAClearError() async throws {
        let result = try await TaskflowProcess.run(["run", "/no/such/file.toml"])
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("/no/such/file.toml: "), "the file first: \(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 2, "the problem and the step: \(result.standardError)")
        #expect(result.standardError.hasSuffix("\ntaskflow: start-up failed at \"Load scenario\"\n"))
    }

    /// A start-up step's problem is said once, in words, then the step: opening the outbox demo's
    /// store used to print its problem where it was met and end the step with an `ExitCode`,
    /// which the start-up then reported as "taskflow: ExitCode(rawValue: 2)".
    @Test func aStoreThatIsNotAStoreEndsTheStartUpSayingWhyOnce() async throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "notastore-\(UUID().uuidString).txt")
        try "hello\n".write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try await TaskflowProcess.run(["demo", "outbox", "--store", file.path, "--headless"])
        #expect(result.status == 2)
        #expect(result.standardError == """
            taskflow: \(file.path): not a TaskFlow job store (not an SQLite database); left untouched
            taskflow: start-up failed at "Load scenario"

            """)
        #expect(try String(contentsOf: file, encoding: .utf8) == "hello\n", "the file is left as it was")
    }

    /// `--speed` takes a plain decimal number from 0.01 to 1000: not hexadecimal, not an
    /// exponent, not NaN; a negative one is out of range, not a missing value.
    @Test(arguments: [
        ("0", "out of range, must be from 0.01 to 1,000"),
        ("-1", "out of range, must be from 0.01 to 1,000"),
        ("2000", "out of range, must be from 0.01 to 1,000"),
        ("0x10", "not a decimal number like 2 or 0.5"),
        ("1e3", "not a decimal number like 2 or 0.5"),
        ("nan", "not a decimal number like 2 or 0.5"),
    ])
    func aBadSpeedIsRefusedBeforeAnythingRuns(speed: String, problem: String) async throws {
        let result = try await TaskflowProcess.run(["demo", "tour", "--speed", speed, "--headless"])
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "taskflow: the value '\(speed)' is invalid for '--speed <factor>': \(problem) (see 'taskflow demo --help')\n")
    }

    /// Every number the command line takes is checked where it is parsed, against the range its
    /// flag allows, and refused in one line naming the flag, the value and the range:
    /// `--history 9223372036854775807` used to pass, then overflow on the first finished flow.
    @Test(arguments: [
        ("--history 9223372036854775807", "'--history <n>': out of range, must be from 1 to 1,000,000"),
        ("--history 99999999999999999999", "'--history <n>': out of range, must be from 1 to 1,000,000"),
        ("--history 0", "'--history <n>': out of range, must be from 1 to 1,000,000"),
        ("--history -5", "'--history <n>': out of range, must be from 1 to 1,000,000"),
        ("--history 1.5", "'--history <n>': not a whole number like 12"),
        ("--seed 18446744073709551616", "'--seed <n>': out of range, must be from 0 to 18,446,744,073,709,551,615"),
        ("--boot-delay inf", "'--boot-delay': not a decimal number like 2 or 0.5"),
        ("--boot-delay 1000000", "'--boot-delay': out of range, must be from 0 to 3,600"),
    ])
    func aNumberOutOfItsRangeIsRefusedWhereItIsParsed(option: String, problem: String) async throws {
        let value = option.split(separator: " ")[1]
        let result = try await TaskflowProcess.run(["demo", "built-in", "--headless"] + option.split(separator: " ").map(String.init))
        #expect(result.status == 2, "\(option)")
        #expect(result.standardOutput.isEmpty, "\(option)")
        #expect(result.standardError == "taskflow: the value '\(value)' is invalid for \(problem) (see 'taskflow demo --help')\n")
    }

    /// A job's id is a whole number from 1, checked like every other number.
    @Test(arguments: ["show", "retry", "cancel"], ["0", "99999999999999999999"])
    func aJobIdOutOfRangeIsRefusedWhereItIsParsed(command: String, id: String) async throws {
        let result = try await TaskflowProcess.run(["jobs", command, id])
        #expect(result.status == 2)
        #expect(result.standardError == """
            taskflow: the value '\(id)' is invalid for '<id>': out of range, must be from 1 to 9,223,372,036,854,775,807 \
            (see 'taskflow jobs \(command) --help')

            """)
    }

    /// The largest history allowed is taken, and a run with it ends normally.
    @Test func theLargestHistoryIsTakenAndTheRunEnds() async throws {
        let result = try await TaskflowProcess.run(["demo", "built-in", "--history", "1000000", "--speed", "20", "--headless"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.contains("completed"))
    }

    /// Every usage error: status 2 (not ArgumentParser's 64) and one line naming the problem and
    /// the help to read.
    @Test(arguments: [
        (["--bogus"], "unknown option '--bogus' (see 'taskflow --help')"),
        (["nosuch"], "unexpected argument 'nosuch' (see 'taskflow --help')"),
        (["check"], "missing expected argument '<file>' (see 'taskflow check --help')"),
        (["run", "a.toml", "b.toml"], "unexpected argument 'b.toml' (see 'taskflow run --help')"),
        (["demo", "tour", "--speed"], "missing value for '--speed <factor>' (see 'taskflow demo --help')"),
        (["demo", "tour", "--seed", "-1"], "the value '-1' is invalid for '--seed <n>': out of range, must be from 0 to 18,446,744,073,709,551,615 (see 'taskflow demo --help')"),
        (["--speed", "-1"], "the value '-1' is invalid for '--speed <factor>': out of range, must be from 0.01 to 1,000 (see 'taskflow --help')"),
        (["jobs", "purge"], "say what to purge: --failed (see 'taskflow jobs purge --help')"),
    ])
    func aUsageErrorIsOneLineAndStatusTwo(arguments: [String], problem: String) async throws {
        let result = try await TaskflowProcess.run(arguments)
        #expect(result.status == 2, "\(arguments)")
        #expect(result.standardOutput.isEmpty, "\(arguments)")
        #expect(result.standardError == "taskflow: \(problem)\n", "\(arguments)")
    }

    @Test(arguments: [["--help"], ["help", "run"], ["run", "--help"]])
    func helpGoesToStandardOutputWithStatusZero(arguments: [String]) async throws {
        let result = try await TaskflowProcess.run(arguments)
        #expect(result.status == 0, "\(arguments)")
        #expect(result.standardOutput.contains("USAGE: taskflow"), "\(arguments)")
        #expect(result.standardError.isEmpty, "\(arguments)")
    }

    @Test func aHeadlessRunOfADemoEndsOnItsOwnAndExitsZero() async throws {
        let result = try await TaskflowProcess.run(["demo", "publish-post", "--headless", "--speed", "20"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardOutput.hasSuffix("\n") && !result.standardOutput.contains("\n\n"), "one line per event, no empty one")
        #expect(result.standardOutput.contains("\"Publish with a broken video\" failed"))
        #expect(result.standardOutput.contains("\"Publish holiday post\" completed"))
    }

    @Test func aHeadlessRunPrintsTheJobsAndEndsOnceTheyHaveEnded() async throws {
        let text = try await TaskflowProcess.run(["demo", "jobs", "--headless", "--speed", "20"])
        #expect(text.status == 0, "\(text.standardError)")
        let lines = text.standardOutput.split(separator: "\n").map { $0.drop { $0 == " " } }
        // 500 ms and 1 s of backoff at 20×; every job's end is printed before the run ends.
        #expect(lines.contains { $0.hasSuffix("\"Sync with server\" (Downloads): attempt 1/4 failed: 'Sync with server' failed on purpose at 50%; next in 25ms") })
        #expect(lines.contains { $0.hasSuffix("\"Sync with server\" (Downloads): attempt 2/4 failed: 'Sync with server' failed on purpose at 50%; next in 50ms") })
        #expect(lines.contains { $0.hasSuffix("\"Notify the team\" (Thumbnails): failed: 'Notify the team' did not run: its dependency 'Apply licence' failed") })
        #expect(lines.contains { $0.hasSuffix("\"Write index\" (Disk): succeeded") })

        let json = try await TaskflowProcess.run(["demo", "jobs", "--json", "--speed", "20"])
        #expect(json.status == 0, "\(json.standardError)")
        let records = json.standardOutput.split(separator: "\n").compactMap { try? JSONDecoder().decode(JobEventRecord.self, from: Data($0.utf8)) }
            .filter { $0.event.hasPrefix("job") }
        #expect(records.filter { $0.event == "jobFinished" }.count == 16)
        #expect(records.contains { $0.event == "jobFinished" && $0.title == "Fetch licence" && $0.status == "failed" && $0.message == "'Fetch licence' failed on purpose at 50%" })
        #expect(records.contains { $0.event == "jobAdded" && $0.title == "Publish gallery" && $0.after?.count == 1 && $0.queue == "Thumbnails" })
    }

    @Test func badThemeFileFailsBeforeTheScreenWithFileLineAndKey() async throws {
        let theme = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).toml")
        try "title = {}\n[status]\nrunning = { fg = \"gren\" }\n".write(to: theme, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: theme) }
        let result = try await TaskflowProcess.run(["--theme", theme.path])
        #expect(result.status == 2)
        #expect(result.standardError == "taskflow: \(theme.path):3:18: 'status.running.fg': unknown colour \"gren\"; use a name like \"bright-red\", 0-255 or \"#RRGGBB\"\ntaskflow: start-up failed at \"Load theme\"\n")
    }

    @Test func pipedOutputFallsBackToHeadlessTextAndExitsZeroWhenTheDemoEnds() async throws {
        // No --json or --headless: the pipe on stdout alone must make taskflow headless.
        let result = try await TaskflowProcess.run(["demo", "built-in", "--speed", "4"])
        let lines = result.standardOutput.split(separator: "\n")
        #expect(result.status == 0)
        #expect(lines.count > 50)
        #expect(!result.standardOutput.contains("\u{1B}"), "no screen drawn into the pipe")
        #expect(lines.contains { $0.hasSuffix(#"#4 "Sync with server" failed: server rejected the push (HTTP 409 conflict)"#) })
    }

    @Test func aBadScenarioFileIsRefusedWithFileLineAndColumnAndExitTwo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).toml")
        try "name = \"bad\"\n[[flow]]\ntitle = \"a\"\naccess = \"read\"\n  [[flow.step]]\n  task = \"t\"\n  duration = \"soon\"\n"
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        for command in ["run", "check"] {
            let result = try await TaskflowProcess.run([command, file.path])
            #expect(result.status == 2, "\(command)")
            #expect(result.standardError.hasPrefix("\(file.path):7:"), "\(command): \(result.standardError)")
            #expect(result.standardError.contains("duration"), "\(command): \(result.standardError)")
        }
    }
}
