import Foundation
import Testing

/// Output that cannot be written — a full disk, a closed descriptor, a pipe nobody reads — ends
/// the program with a status and at most one line, never a crash.
@Suite(.timeLimit(.minutes(1)))
struct OutputFailureTests {
    static let headless = "\(TaskflowShell.binary) demo built-in --headless --speed 50"
    static let tour = CommandLineTests.demoFolder.appending(path: "tour.toml").path

    @Test func headlessOutputIntoAFullDiskIsOneLineAndStatusTwo() async throws {
        let result = try await TaskflowShell.run("\(Self.headless) >/dev/full")
        #expect(result.status == 2)
        #expect(result.output == "taskflow: cannot write to standard output: No space left on device\n")
    }

    /// Also: descriptor 1 is not handed to the next file opened (the run loop's eventfd), which
    /// would take the events ("Invalid argument").
    @Test func headlessOutputIntoAClosedDescriptorIsOneLineAndStatusTwo() async throws {
        let result = try await TaskflowShell.run("\(Self.headless) >&-")
        #expect(result.status == 2)
        #expect(result.output == "taskflow: cannot write to standard output: Bad file descriptor\n")
    }

    /// `taskflow --json | head -1` from a parent that ignores SIGPIPE: the write fails with EPIPE.
    @Test(arguments: [true, false])
    func jsonIntoAPipeWhoseReaderLeftEndsQuietlyWith141(sigpipeIgnored: Bool) async throws {
        // fd 3 keeps the script's own stdout: the pipeline's reader takes taskflow's.
        let script = """
            exec 3>&1
            \(sigpipeIgnored ? "trap '' PIPE" : "")
            { \(TaskflowShell.binary) demo built-in --json --speed 50 2>&3; echo "status=$?" >&3; } | head -c 1 >/dev/null
            """
        let result = try await TaskflowShell.run(script)
        #expect(result.output == "status=141\n", "SIGPIPE ignored: \(sigpipeIgnored)")
    }

    @Test(arguments: ["demo", "check '\(tour)'", "--help"])
    func commandOutputIntoAFullDiskIsOneLineAndStatusTwo(arguments: String) async throws {
        let result = try await TaskflowShell.run("\(TaskflowShell.binary) \(arguments) >/dev/full")
        #expect(result.status == 2, "\(arguments)")
        #expect(result.output == "taskflow: cannot write to standard output: No space left on device\n", "\(arguments)")
    }

    /// Nowhere to say what is wrong: the status still says it.
    @Test(arguments: ["2>/dev/full", "2>&-"])
    func anErrorThatCannotBeWrittenStillExitsTwo(redirection: String) async throws {
        let result = try await TaskflowShell.run("\(TaskflowShell.binary) check /no/such/file.toml \(redirection)")
        #expect(result.status == 2, "\(redirection)")
        #expect(result.output.isEmpty, "\(redirection)")
    }
}
