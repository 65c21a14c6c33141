import ConsoleProtocol
import Foundation

/// A program this user can attach to, as its console introduced itself.
package struct AttachableProgram: Sendable {
    /// Its socket.
    package let path: String
    /// Its hello: program, pid, title, started, read-only.
    package let hello: ServerHello
    /// How many of its flows are not finished.
    package let flowsRunning: Int
}

/// This user's attachable programs: the consoles in the default folder that answer.
package enum ConsoleDirectory {
    /// Every console in `folder` (by default this user's) that answers its handshake within
    /// `timeout`, by pid; stale sockets of programs that ended, and anything else, are skipped.
    package static func list(
        folder: String = ConsoleLocation.defaultFolder, timeout: Duration = .seconds(2)
    ) async -> [AttachableProgram] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        let paths = names.filter { $0.hasSuffix(".sock") }.map { "\(folder)/\($0)" }
        let programs = await withTaskGroup(of: AttachableProgram?.self) { group in
            for path in paths {
                group.addTask { await probe(path, timeout: timeout) }
            }
            var found: [AttachableProgram] = []
            for await program in group { if let program { found.append(program) } }
            return found
        }
        return programs.sorted { $0.hello.pid < $1.hello.pid }
    }

    /// The socket of process `pid` in the default folder.
    package static func path(pid: Int32) -> String { ConsoleLocation.defaultPath(pid: pid) }

    private static func probe(_ path: String, timeout: Duration) async -> AttachableProgram? {
        guard let client = try? await ConsoleClient.connect(path: path, client: "taskflow attach --list", timeout: timeout)
        else { return nil }
        await client.close()
        let running = client.snapshot.flows.filter { !$0.status.isFinished }.count
        return AttachableProgram(path: path, hello: client.hello, flowsRunning: running)
    }
}
