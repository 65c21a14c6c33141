import Foundation
@testable import TaskFlowStore

/// The id of a process of this host that ran and exited: what a crashed worker leaves behind.
func deadProcessID() throws -> Int32 {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/bin/true")
    try process.run()
    process.waitUntilExit()
    return process.processIdentifier
}

/// A child process that has exited and is not reaped yet (a zombie): the caller reaps it with
/// `waitpid`. Its exit is waited for by its state in `/proc`, not by time.
func zombieProcess() throws -> Int32 {
    var pid: Int32 = 0
    let arguments: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/true"), nil]
    defer { arguments.forEach { free($0) } }
    guard posix_spawn(&pid, "/bin/true", nil, nil, arguments, nil) == 0 else { throw CocoaError(.executableLoad) }
    for _ in 0..<10_000 {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        if stat.contains(") Z ") { return pid }
        usleep(1_000)
    }
    throw CocoaError(.executableLoad)
}

extension StorePlace {
    /// Marks job `id` claimed, with an hour's lease, by a worker of this host, this boot and
    /// PID namespace whose process has exited: what a crash mid-job leaves in the store.
    func markClaimedByDeadWorker(_ id: StoredJobID) async throws {
        let this = LeaseOwner.current()
        let dead = LeaseOwner(host: this.host, boot: this.boot, pid: try deadProcessID(), token: "gone")
        try await markClaimed(id, dead.encoded, 3600)
    }
}
