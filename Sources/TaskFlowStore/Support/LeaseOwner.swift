import Foundation

/// Who holds a lease: this host (name and boot), this process, this store instance.
///
/// Written into each claimed row as `host boot pid token`, where `boot` is the kernel's boot id
/// and the process's PID namespace (`boot-id/pid:[inode]`). When a store starts it re-queues at
/// once the jobs held by owners that are certainly dead: same host and either another boot (a
/// reboot ended every process) or, in the same PID namespace, a process id that no longer
/// exists. Anything it cannot prove dead — another host, a live pid (even one reused by an
/// unrelated program), another PID namespace (containers sharing the host's name and kernel,
/// whose pids this process cannot see), another store in this same process — keeps its jobs
/// until their lease expires: waiting is always safe, re-queuing a live worker's job is not.
struct LeaseOwner: Sendable, Hashable {
    let host: String
    let boot: String
    let pid: Int32
    let token: String

    /// This store instance in this process.
    static func current() -> LeaseOwner {
        LeaseOwner(
            host: ProcessInfo.processInfo.hostName.replacingOccurrences(of: " ", with: "_"),
            boot: bootAndNamespace(), pid: getpid(), token: UUID().uuidString)
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
        let (theirBoot, ourBoot) = (Self.bootID(of: parts[1]), Self.bootID(of: boot))
        if theirBoot != ourBoot { return !ourBoot.isEmpty && !theirBoot.isEmpty }
        // Same boot: only a pid of our own namespace means what `kill` says of it.
        guard parts[1] == boot, pid != self.pid else { return false }
        return (kill(pid, 0) == -1 && errno == ESRCH) || Self.isZombie(pid)
    }

    /// Whether `pid` ended and waits to be reaped: `kill` still finds it, but it runs no more
    /// (a container whose first process reaps nothing keeps its killed workers so for ever).
    private static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        // `pid (command) state …`: the command may hold spaces and parentheses, the state follows the last `)`.
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    /// The kernel's boot id in a `boot` field (what precedes the namespace).
    private static func bootID(of boot: String) -> Substring {
        boot.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }

    /// Linux's id of this boot and this process's PID namespace; each part empty where there is
    /// none (reboots are then not detected; pids are then judged as if in one namespace).
    private static func bootAndNamespace() -> String {
        let text = (try? String(contentsOfFile: "/proc/sys/kernel/random/boot_id", encoding: .utf8)) ?? ""
        let namespace = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/ns/pid")) ?? ""
        return text.trimmingCharacters(in: .whitespacesAndNewlines) + "/" + namespace.replacingOccurrences(of: " ", with: "_")
    }
}
