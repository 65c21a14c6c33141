import Foundation
import TaskFlowStore
import TaskFlowTestSupport

/// The job the crash probe runs; kind and fields match the probe's.
struct ProbeJob: StoredJob {
    static let kind = "crash-probe"
    let n: Int
}

/// The `TaskFlowStoreCrashProbe` worker process, built next to the test bundle. Every wait for
/// it happens off the cooperative pool (``offThePool(_:)``), where it would stall other tests.
struct CrashProbe: Sendable {
    static var binary: String {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent("TaskFlowStoreCrashProbe").path
    }

    private let process = Process()

    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts a probe on `store` recording runs in `runs`, and returns once its workers run.
    static func start(store: String, runs: String, workers: Int) async throws -> CrashProbe {
        let probe = CrashProbe()
        try await offThePool { try probe.launch(store: store, runs: runs, workers: workers) }
        return probe
    }

    private func launch(store: String, runs: String, workers: Int) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.arguments = [store, runs, String(workers)]
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while !String(decoding: printed, as: UTF8.self).contains("started\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else {
                process.waitUntilExit()
                throw ProbeError.exitedEarly(status: process.terminationStatus)
            }
            printed.append(chunk)
        }
    }

    /// SIGKILL: no cleanup of any kind runs in the child.
    func kill() async throws -> Int32 {
        Foundation.kill(process.processIdentifier, SIGKILL)
        return try await exitStatus()
    }

    /// Waits for the child to end; its exit status.
    func exitStatus() async throws -> Int32 {
        try await offThePool { [process] in
            process.waitUntilExit()
            return process.terminationStatus
        }
    }

    enum ProbeError: Error {
        case exitedEarly(status: Int32)
    }
}
