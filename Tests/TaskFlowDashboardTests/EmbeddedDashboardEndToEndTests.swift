import Foundation
import Testing

/// `folder-sync-example`, a program with the dashboard embedded (`Dashboard(…).run()`), on its
/// own folder: in a real terminal (tmux) driven with keys, and without one.
@Suite(
    "End to end: the embedded dashboard", .serialized, .timeLimit(.minutes(2)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct EmbeddedDashboardEndToEndTests {
    /// A folder to sync: six files in `source/`, one of them in `library/` already, beside two
    /// old notes the sync deletes.
    /// A folder to sync: `source/` with a.txt to f.txt and `extra` more files after them
    /// (x01.txt, …), `library/` with a.txt and two files from before.
    private func makeFolder(extra: Int = 0) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "folder-sync-test-\(UUID().uuidString)")
        for part in ["source", "library"] {
            try FileManager.default.createDirectory(at: folder.appending(path: part), withIntermediateDirectories: true)
        }
        for name in ["a", "b", "c", "d", "e", "f"] + (0..<extra).map({ String(format: "x%02d", $0 + 1) }) {
            try Data("file \(name)\n".utf8).write(to: folder.appending(path: "source/\(name).txt"))
        }
        try Data("file a\n".utf8).write(to: folder.appending(path: "library/a.txt"))
        for name in ["old-1", "old-2"] {
            try Data("\(name), from before\n".utf8).write(to: folder.appending(path: "library/\(name).txt"))
        }
        return folder
    }

    /// Every file under `folder` with its contents, by path.
    private func listing(_ folder: URL) throws -> [String: String] {
        var files: [String: String] = [:]
        for part in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.appending(path: part).path) {
                files["\(part)/\(name)"] = try String(contentsOf: folder.appending(path: "\(part)/\(name)"), encoding: .utf8)
            }
        }
        return files
    }

    @Test func cancelMidWayUnwindsOnScreenAndLeavesTheFolderAsItWas() async throws {
        // Fifty files more: the sync outlasts any poll, and `c` always lands mid-way (with six,
        // a loaded machine once saw the third copy only after the sync had ended).
        let folder = try makeFolder(extra: 50)
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try listing(folder)
        let tmux = try Tmux("embedded-cancel", program: Tmux.example, arguments: "--folder '\(folder.path)' --pace 2")
        defer { tmux.close() }
        try await tmux.waitFor("the program's flows and queue") { screen in
            screen.contains("TaskFlow · Folder sync") && screen.contains("Sync library") && screen.contains("Check library")
        }
        // Two copies done, the third under way: the sync is the first flow, selected.
        try await tmux.waitFor("the third copy") { $0.contains("Copy d.txt") }
        try tmux.send("c")
        let cancelled = try await tmux.waitFor("the sync rolled back") { $0.contains("Sync library (write) — cancelled") }
        let reverted = cancelled.split(separator: "\n").filter { $0.contains("Copy ") && $0.contains("reverted") }
        #expect(reverted.count >= 2, "the copies made before `c` are reverted on screen:\n\(cancelled)")
        try #expect(listing(folder) == before, "the folder as it was before the sync")
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
        try #expect(listing(folder) == before)
    }

    @Test func withoutATerminalItPrintsOneLinePerEventAndEndsWithTheFlows() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await TaskflowProcess.run(["--folder", folder.path, "--pace", "0.05"], program: Tmux.example)
        #expect(result.status == 0, "stderr: \(result.standardError)")
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.allSatisfy { $0.wholeMatch(of: /\s*[0-9.]+[a-z]+  \S.*/) != nil }, "one time-stamped line per event:\n\(result.standardOutput)")
        // The last file's checksum: the first ones' may be over before the dashboard runs (the
        // program starts its work first), and what ended before it subscribed is not printed.
        for expected in ["\"Sync library\" completed", "\"Check library\" completed", "\"Checksum c.txt\" (Checksums): succeeded"] {
            #expect(lines.contains { $0.hasSuffix(expected) }, "\(expected):\n\(result.standardOutput)")
        }
        let synced = try listing(folder)
        #expect(synced.keys.filter { $0.hasPrefix("library/") }.sorted() == (["a", "b", "c", "d", "e", "f"].map { "library/\($0).txt" }))
    }

    @Test func jsonLinesOnRequest() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await TaskflowProcess.run(["--folder", folder.path, "--pace", "0.01", "--json"], program: Tmux.example)
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(!lines.isEmpty && lines.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) is [String: Any] })
    }

    @Test func aBadThemeIsOneLineAndStatus2() async throws {
        let folder = try makeFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await TaskflowProcess.run(
            ["--folder", folder.path, "--theme", "no-such-theme", "--headless"], program: Tmux.example)
        #expect(result.status == 2)
        #expect(result.standardOutput.isEmpty)
        let errors = result.standardError.split(separator: "\n")
        #expect(errors.count == 1 && errors[0].hasPrefix("folder-sync-example: ") && errors[0].contains("no-such-theme"), "\(errors)")
    }
}
