import Foundation

/// The `TaskFlowStoreCrashProbe` worker process, built next to the test bundle.
struct CrashProbe {
    static var binary: String {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent("TaskFlowStoreCrashProbe").path
    }

    let process = Process()
    private let output = Pipe()

    /// Starts a probe on `store` recording runs in `runs`, and returns once its workers run.
    init(store: String, runs: String, workers: Int) throws {
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [store, runs, String(workers)]
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("started\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ProbeError.exitedEarly(status: exitStatus()) }
            printed.append(chunk)
        }
    }

    /// SIGKILL: no cleanup of any kind runs in the child.
    func kill() -> Int32 {
        Foundation.kill(process.processIdentifier, SIGKILL)
        return exitStatus()
    }

    /// Waits for the child to end; its exit status.
    func exitStatus() -> Int32 {
        process.waitUntilExit()
        return process.terminationStatus
    }

    enum ProbeError: Error {
        case exitedEarly(status: Int32)
    }
}
