import DashboardKit
import Dispatch
import Foundation
import Synchronization
import TaskFlowScenario
import TaskFlowTestSupport
import Testing

/// Seeded mutations of the shipped demos and themes, loaded through the entry points the
/// command line uses (`Scenario.load(contentsOf:)` for `check` and `run`, `ThemeCatalog.load`
/// for `--theme`): none may crash, take more than a few seconds, or print a control character.
/// A failure names the seed and the mutation, so it replays exactly.
@Suite struct InputFuzzTests {
    private static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Generous: a file is read in milliseconds; this only turns a hang into a failure.
    private static let secondsPerFile = 20.0

    @Test func mutatedDemosLoadOrFailCleanly() throws {
        try fuzz(folder: "demo", cases: 300, seed: 7) { url in
            do {
                return ScenarioSummary(try Scenario.load(contentsOf: url)).description
            } catch {
                return String(describing: error)
            }
        }
    }

    @Test func mutatedThemesLoadOrFailCleanly() throws {
        try fuzz(folder: "Themes", cases: 200, seed: 11) { url in
            do {
                return try ThemeCatalog(directories: []).load(url.path).name
            } catch {
                return String(describing: error)
            }
        }
    }

    /// Writes `cases` mutations of the `.toml` files in `folder` and checks what `load` says.
    private func fuzz(folder: String, cases: Int, seed: UInt64, load: @escaping @Sendable (URL) -> String) throws {
        let sources = try FileManager.default.contentsOfDirectory(
            at: Self.packageRoot.appending(path: folder, directoryHint: .isDirectory), includingPropertiesForKeys: nil
        ).filter { $0.pathExtension == "toml" }.sorted { $0.path < $1.path }
        try #require(!sources.isEmpty)
        let originals = try sources.map { try [UInt8](Data(contentsOf: $0)) }
        let scratch = FileManager.default.temporaryDirectory.appending(path: "taskflow-fuzz-\(UUID())", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }

        var random = SeededGenerator(seed: seed)
        for number in 0..<cases {
            let source = number % originals.count
            var bytes = originals[source]
            // One to three mutations stacked: single ones rarely reach past the first error.
            var applied: [Mutation] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let mutation = Mutation.allCases.randomElement(using: &random) ?? .flipByte
                bytes = mutation.apply(to: bytes, using: &random)
                applied.append(mutation)
            }
            let url = scratch.appending(path: "case-\(number).toml")
            try Data(bytes).write(to: url)
            let label = "seed \(seed), case \(number): \(applied) on \(sources[source].lastPathComponent)"
            guard let said = Self.run(within: Self.secondsPerFile, { load(url) }) else {
                Issue.record("no answer within \(Self.secondsPerFile) s: \(label)")
                continue
            }
            let controls = said.unicodeScalars.filter { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) }
            #expect(controls.isEmpty, "raw control characters \(controls.map(\.value)): \(label)")
        }
    }

    /// `body`'s result, computed on a thread of its own, or nil after `seconds`: a hang fails
    /// the test instead of stalling the suite (the thread is left to finish).
    private static func run(within seconds: Double, _ body: @escaping @Sendable () -> String) -> String? {
        let answer = Answer()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            answer.text.withLock { $0 = body() }
            done.signal()
        }
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        return answer.text.withLock { $0 }
    }

    /// Where the loading thread leaves its answer.
    private final class Answer: Sendable {
        let text = Mutex<String?>(nil)
    }
}
