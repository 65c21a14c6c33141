import Foundation
import TaskFlowTestSupport

/// The built `taskflow` binary run without a terminal: what it printed and how it exited.
struct TaskflowProcess {
    let status: Int32
    let standardOutput: String
    let standardError: String

    /// Runs `taskflow arguments` to the end, waiting off the cooperative pool. Stdout is read
    /// through a pipe while it runs; stderr goes to a file, so neither can fill up and stall the
    /// child.
    /// Runs taskflow (or `program`) with `arguments`, its environment this process's with
    /// `environment` on top.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], program: String = Tmux.binary
    ) async throws -> TaskflowProcess {
        try await offThePool { try runBlocking(arguments, environment: environment, program: program) }
    }

    private static func runBlocking(_ arguments: [String], environment: [String: String], program: String) throws -> TaskflowProcess {
        let errorPath = FileManager.default.temporaryDirectory.appendingPathComponent("taskflow-\(UUID().uuidString).err")
        guard FileManager.default.createFile(atPath: errorPath.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: errorPath.path])
        }
        defer { try? FileManager.default.removeItem(at: errorPath) }
        let errors = try FileHandle(forWritingTo: errorPath)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        // Preferences of its own unless `environment` names a folder (see ``Tmux/freshConfigHome()``).
        process.environment = ProcessInfo.processInfo.environment
            .merging(["XDG_CONFIG_HOME": Tmux.freshConfigHome()]) { _, new in new }
            .merging(environment) { _, new in new }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try errors.close()
        return TaskflowProcess(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: try String(contentsOf: errorPath, encoding: .utf8))
    }
}
