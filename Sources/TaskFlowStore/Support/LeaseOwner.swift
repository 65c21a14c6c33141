import Foundation

/// Who holds a lease: this host (name and boot), this process, this store instance.
///
/// Written into each claimed row as `host boot pid token`. When a store starts it re-queues at
/// once the jobs held by owners that are certainly dead: same host and either another boot (a
/// reboot ended every process) or a process id that no longer exists. Anything it cannot prove
/// dead — another host, a live pid (even one reused by an unrelated program), another store in
/// this same process — keeps its jobs until their lease expires: waiting is always safe,
/// re-queuing a live worker's job is not.
struct LeaseOwner: Sendable, Hashable {
    let host: String
    let boot: String
    let pid: Int32
    let token: String

    /// This store instance in this process.
    static func current() -> LeaseOwner {
        LeaseOwner(
            host: ProcessInfo.processInfo.hostName.replacingOccurrences(of: " ", with: "_"),
            boot: bootID(), pid: getpid(), token: UUID().uuidString)
    }

    /// The form stored in `lease_owner`.
    var encoded: String { "\(host) \(boot) \(pid) \(token)" }

    /// `host:pid` for the owner `encoded`; `encoded` itself when it is not in ``encoded``'s form.
    static func processName(_ encoded: String) -> String {
        let parts = encoded.split(separator: " ")
        guard parts.count == 4, Int32(parts[2]) != nil else { return encoded }
        return "\(parts[0]):\(parts[2])"
    }

    /// Whether the owner `encoded` is a process of this host that no longer runs.
    func isCertainlyDead(_ encoded: String) -> Bool {
        let parts = encoded.split(separator: " ").map(String.init)
        guard parts.count == 4, parts[0] == host, let pid = Int32(parts[2]) else { return false }
        if parts[1] != boot { return !boot.isEmpty && !parts[1].isEmpty }
        guard pid != self.pid else { return false }
        return kill(pid, 0) == -1 && errno == ESRCH
    }

    /// Linux's id of this boot; empty where there is none (reboots are then not detected).
    private static func bootID() -> String {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
