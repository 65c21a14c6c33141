import ConsoleProtocol
import Foundation
import TaskFlow
import TaskFlowTestSupport
import Testing

/// A recording is the protocol's lines: hello, snapshot, then the program's events, owner-only.
@Suite struct SessionRecorderTests {
    @Test func recordsHelloSnapshotThenEventsOwnerOnly() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let manager = TaskFlowManager()
        let before = manager.execute(title: "Before") { _ in }
        try await before.value
        let recorder = try SessionRecorder(path: path)
        recorder.record(ConsoleFeed(manager: manager, title: "Importer"))
        let flow = manager.execute(title: "Recorded") { flow in try await flow.main(title: "step", apply: {}, revert: { _ in }) }
        try await flow.value
        #expect(await eventually { lines(path).contains { $0.flow.map { "\($0.event.core)".contains("completed") } ?? false } })
        #expect(recorder.close() == [], "a whole recording has nothing to say")

        let messages = lines(path)
        #expect(messages.first?.hello?.title == "Importer")
        #expect(messages.dropFirst().first?.snapshot?.undoable.map(\.core.title) == ["Before"])
        let queued = messages.compactMap { $0.flow?.event.core }.compactMap { event -> String? in
            if case .flowQueued(let info) = event { info.title } else { nil }
        }
        #expect(queued == ["Recorded"])
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func aFullQueueDropsAndCountsInsteadOfGrowing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("rec-\(UUID()).jsonl").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let recorder = try SessionRecorder(path: path, capacity: 0)
        recorder.record(.bye(ByeMessage(reason: "x")))
        recorder.record(.bye(ByeMessage(reason: "y")))
        #expect(recorder.close() == ["recording \(path): 2 events dropped (the disk was slower than the program)"])
    }

    private func lines(_ path: String) -> [ServerMessage] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return data.split(separator: UInt8(ascii: "\n")).compactMap { try? MessageCoding.serverMessage($0) }
    }
}
