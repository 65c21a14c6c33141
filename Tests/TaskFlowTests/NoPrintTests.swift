import Foundation
import Testing

/// A library logs through swift-log and never writes to the program's standard output behind
/// its back: no library target calls `print(` (the executables may).
@Suite struct NoPrintTests {
    /// The targets under Sources/ that are programs, not libraries.
    private static let executables: Set<String> = ["taskflow", "TaskFlowBenchmarks", "TaskFlowStoreCrashProbe"]

    @Test func noLibraryTargetPrints() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Sources")
        let targets = try FileManager.default.contentsOfDirectory(atPath: sources.path)
            .filter { !Self.executables.contains($0) }
        #expect(targets.contains("TaskFlow") && targets.contains("TaskFlowStore"), "the sources are where this test looks")
        var offenders: [String] = []
        for target in targets {
            let folder = sources.appendingPathComponent(target)
            guard let files = FileManager.default.enumerator(atPath: folder.path) else { continue }
            for case let file as String in files where file.hasSuffix(".swift") {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where Self.calls(line) {
                    offenders.append("\(target)/\(file):\(number + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "a library prints: \(offenders.joined(separator: ", "))")
    }

    /// Whether a line of code (not a comment) calls `print(` or `debugPrint(`.
    private static func calls(_ line: Substring) -> Bool {
        let code = line.trimmingCharacters(in: .whitespaces)
        guard !code.hasPrefix("//") else { return false }
        return code.range(of: #"(^|[^A-Za-z0-9_.])(debugP|p)rint\("#, options: .regularExpression) != nil
    }
}
