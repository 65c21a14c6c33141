import Foundation
import TaskFlowStore
import TaskFlowTestSupport

/// The job the crash probe runs; kind and fields match the probe's.
struct ProbeJob: StoredJob {
    static let kind = "crash-probe"
    let n: Int
}

/// A probe process built next to the test bundle: the `TaskFlowStoreCrashProbe` worker, or the
/// `TaskFlowDurableCrashProbe`. Every wait for it happens off the cooperative pool
/// (``offThePool(_:)``), where it would stall other tests.
struct CrashProbe: Sendable {
    /// The path of executable `name`, built next to the test bundle.
    static func binary(_ name: String) -> String {
        let bundle = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        return bundle.appendingPathComponent(name).path
    }

    private let process = Process()

    /// Its process id.
    var pid: Int32 { process.processIdentifier }

    /// Starts a worker probe on `store` recording runs in `runs`, and returns once its workers run.
    static func start(store: String, runs: String, workers: Int) async throws -> CrashProbe {
        try await launch("TaskFlowStoreCrashProbe", arguments: [store, runs, String(workers)], until: ["started"]).probe
    }

    /// Starts executable `name` with `arguments` and returns once it printed a line of `lines`:
    /// the probe, and the first such line. `killing`: SIGKILL it the moment that line is read,
    /// on the reading thread — not after a hop back to the cooperative pool, which a loaded test
    /// run can delay long enough for the probe to finish its work first.
    static func launch(
        _ name: String, arguments: [String], until lines: Set<String>, killing: Bool = false
    ) async throws -> (probe: CrashProbe, line: String) {
        let probe = CrashProbe()
        let line = try await offThePool { try probe.run(name, arguments: arguments, until: lines, killing: killing) }
        return (probe, line)
    }

    private func run(_ name: String, arguments: [String], until lines: Set<String>, killing: Bool) throws -> String {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: Self.binary(name))
        process.arguments = arguments
        process.standardOutput = output
        try process.run()
        var printed = Data()
        while true {
            // Only whole lines: the last piece may be a line still being written.
            let whole = String(decoding: printed, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            if let line = whole.first(where: { lines.contains(String($0)) }) {
                if killing { Foundation.kill(process.processIdentifier, SIGKILL) }
                return String(line)
            }
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
