import Foundation
import Testing

/// `taskflow demo durable-copy` in a real terminal: durable flows copying albums, killed with
/// SIGKILL mid-copy and started again, or cancelled with `c`. An album is in the library whole
/// or not at all.
@Suite(
    "End to end: the durable copy demo", .serialized, .timeLimit(.minutes(4)),
    .enabled(if: Tmux.isInstalled, "tmux is not installed: the end-to-end tests need it (apt-get install tmux)"))
struct DurableCopyEndToEndTests {
    private let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-durable-copy-\(UUID().uuidString)")
    private var store: String { folder.appending(path: "copies.sqlite").path }
    private var source: URL { folder.appending(path: "durable-copy/source") }
    private var library: URL { folder.appending(path: "durable-copy/library") }
    /// The albums the tests copy, and their photos. One album is long: a copy of it lasts over
    /// 45 s at the natural pace, so that a kill or a `c` sent once a test saw two of its photos
    /// copied always lands mid-copy, however late the test's poll (a sample album, five photos,
    /// was once seen whole before the kill).
    private static let longAlbum = 60
    private func sizes(long: String) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: (1...4).map { "album-\($0)" }.map { ($0, $0 == long ? Self.longAlbum : 5) })
    }

    /// `source/` with `albums` (name: photo count): the demo copies these instead of its samples.
    private func makeSource(_ albums: [String: Int]) throws {
        for (album, photos) in albums {
            let folder = source.appending(path: album)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for photo in 1...photos {
                try Data(repeating: UInt8(photo % 256), count: 1024).write(to: folder.appending(path: "photo-\(photo).jpg"))
            }
        }
    }

    /// How many files each album of the library holds, by album.
    private func albums() -> [String: Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: library.path)) ?? []
        return Dictionary(uniqueKeysWithValues: names.map { album in
            (album, (try? FileManager.default.contentsOfDirectory(atPath: library.appending(path: album).path).count) ?? 0)
        })
    }

    private func demo(_ name: String, speed: Double) throws -> Tmux {
        try Tmux(name, arguments: "demo durable-copy --speed \(speed) --store '\(store)'")
    }

    @Test func killedMidCopyThenRestartedTheInterruptedCopyIsRolledBackOnScreenAndEveryAlbumEndsWhole() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = sizes(long: "album-2")
        try makeSource(whole)
        let first = try demo("durable-copy-killed", speed: 1)
        defer { first.close() }
        // Album-1 first (4 s), then two photos of album-2; beside the rest of the suite, a start
        // was seen to take twice as long as alone.
        try await first.waitFor("album-2 copied in part", timeout: .seconds(90)) { _ in albums()["album-2", default: 0] >= 2 }
        let pid = try #require(first.programPID)
        kill(pid, SIGKILL)
        // The shell says so once it reaped it (`EXIT=137`, which may wrap at the screen's edge).
        try await first.waitFor("the kill") { $0.filter { !$0.isWhitespace }.contains("EXIT=137") }
        let killed = albums()
        #expect(killed["album-1"] == whole["album-1"] && (2..<Self.longAlbum).contains(killed["album-2", default: 0]), "killed mid-copy: \(killed)")
        first.close()

        let second = try demo("durable-copy-restarted", speed: 4)
        defer { second.close() }
        let recovered = try await second.waitFor("the recovery on screen") { screen in
            screen.contains("recovered 1 interrupted flow")
                && screen.split(separator: "\n").contains { $0.contains("Recovering #2 Copy album-2") && $0.contains("cancelled") }
        }
        #expect(!recovered.contains("Copy album-1 "), "album-1 was whole: not copied again\n\(recovered)")
        try await second.waitFor("every album copied", timeout: .seconds(90)) { _ in albums() == whole }
        // Copying album-2 again makes its folder and files anew, and would fail on any left behind.
        let expected = [
            "1000004 Copy album-4: completed", "1000003 Copy album-3: completed", "1000002 Copy album-2: completed",
            "2 Copy album-2: rolled-back", "1 Copy album-1: completed",
        ]
        // The journal records a completion just before the flow ends: `q` only once it has.
        var states: [String] = []
        for _ in 0..<400 where states != expected {
            states = try await journalStates()
            if states != expected { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(states == expected)
        try second.send("q")
        try await second.expectExit(status: 0)
    }

    /// `id title: state` of each journaled flow, newest first, as `taskflow flows list` reads them.
    private func journalStates() async throws -> [String] {
        let journal = try await TaskflowProcess.run(["flows", "list", "--json", "--store", store])
        let flows = try #require(try JSONSerialization.jsonObject(with: Data(journal.standardOutput.utf8)) as? [[String: Any]])
        return flows.map { "\($0["id"] ?? "?") \($0["title"] ?? "?"): \($0["state"] ?? "?")" }
    }

    @Test func aCancelledCopyLeavesNoneOfItsAlbum() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let whole = sizes(long: "album-1")
        try makeSource(whole)
        let tmux = try demo("durable-copy-cancelled", speed: 1)
        defer { tmux.close() }
        try await tmux.waitFor("album-1 copied in part") { _ in albums()["album-1", default: 0] >= 2 }
        // The start-up's row first, then the copy of album-1.
        try tmux.send("Down")
        try tmux.send("c")
        let rolledBack = try await tmux.waitFor("the copy rolled back") { screen in
            screen.contains("Copy album-1 (write) — cancelled")
        }
        let reverted = rolledBack.split(separator: "\n").filter { $0.contains("Copy photo-") && $0.contains("reverted") }
        #expect(reverted.count >= 2, "the copies made before `c` are reverted on screen:\n\(rolledBack)")
        #expect(albums()["album-1"] == nil, "none of album-1 left: \(albums())")
        let others = whole.filter { $0.key != "album-1" }
        try await tmux.waitFor("the other albums copied") { _ in albums() == others }
        try tmux.send("q")
        try await tmux.expectExit(status: 0)
    }
}
