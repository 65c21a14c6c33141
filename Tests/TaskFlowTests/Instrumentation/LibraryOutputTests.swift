import Foundation
import Testing

/// The libraries a server links write nothing to stdout or stderr themselves: what they have to
/// say goes through swift-log, where the server's operator routes and filters it (DESIGN §9).
/// Only the terminal front ends (the dashboard modules, the executables) own the terminal.
@Suite struct LibraryOutputTests {
    static let libraries = ["TaskFlow", "TaskFlowSupport", "TaskFlowStore", "TaskFlowPostgres", "TaskFlowConsole", "ConsoleProtocol"]
    /// Calls that write to the process's standard streams behind the logger's back.
    static var writes: some RegexComponent { #/\b(print|debugPrint|dump|fputs|puts|putchar)\(|FileHandle\.standard(Output|Error)|STD(OUT|ERR)_FILENO/# }

    @Test(arguments: libraries)
    func aLibraryWritesToNoStandardStream(_ library: String) throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()  // Tests/TaskFlowTests/Instrumentation
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appending(path: "Sources/\(library)")
        let files = try #require(FileManager.default.enumerator(atPath: folder.path)).compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") }
        #expect(!files.isEmpty, "the sources of \(library) are at \(folder.path)")
        var offenders: [String] = []
        for file in files {
            let text = try String(contentsOf: folder.appending(path: file), encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
            where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(Self.writes) {
                offenders.append("Sources/\(library)/\(file):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
            }
        }
        #expect(offenders.isEmpty, "log through swift-log instead:\n\(offenders.joined(separator: "\n"))")
    }
}
