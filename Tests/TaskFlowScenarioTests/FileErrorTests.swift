import Foundation
import Testing
@testable import TaskFlowScenario

/// Files that cannot be used at all: one clear line each, and the exit status the CLI needs.
@Suite struct FileErrorTests {
    /// The one line `taskflow check` prints for the file at `url`, and the error's status.
    private func refusal(of url: URL, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let error = try #require(throws: ScenarioError.self, sourceLocation: sourceLocation) { try Scenario.load(contentsOf: url) }
        #expect(error.exitCode == 2, sourceLocation: sourceLocation)
        #expect(error.diagnostics.count == 1, sourceLocation: sourceLocation)
        return error.description
    }

    /// A fresh temporary folder, removed after `body`.
    private func inTemporaryFolder(_ body: (URL) throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-files-\(UUID())", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try body(folder)
    }

    @Test func missingFile() {
        let url = URL(filePath: "/nonexistent/scenario.toml")
        #expect(throws: ScenarioError([ScenarioDiagnostic(file: "/nonexistent/scenario.toml", position: nil, message: "no such file")])) {
            try Scenario.load(contentsOf: url)
        }
    }

    @Test func directory() throws {
        #expect(try refusal(of: Paths.demo).hasSuffix("demo: is a directory, not a scenario file"))
    }

    @Test func notText() throws {
        // `name = "` then the bytes FF FE: the first invalid byte is the 9th character of line 1.
        #expect(try refusal(of: Paths.fixture("binary.toml")).hasSuffix("binary.toml:1:9: is not UTF-8 text (an invalid byte here)"))
    }

    @Test func invalidUTF8IsReportedAtItsLineAndColumn() throws {
        try inTemporaryFolder { folder in
            let url = folder.appending(path: "latin1.toml")
            try Data("name = \"Caf\u{E9}\"\n".utf8 + Data("title = \"Ol".utf8) + Data([0xE1]) + Data("\"\n".utf8)).write(to: url)
            #expect(try refusal(of: url) == "\(url.path):2:12: is not UTF-8 text (an invalid byte here)")
        }
    }

    /// TOMLKit reads a C string: before this check, everything after a NUL was never validated.
    @Test func aNULByteIsReportedAtItsLineAndColumn() throws {
        #expect(try refusal(of: Paths.fixture("nul-byte.toml")).hasSuffix(
            "nul-byte.toml:5:10: holds a NUL character (is it a binary file?); TOML text cannot contain one"))
    }

    /// Root reads any file whatever its mode: a path through a regular file is unreadable for all.
    @Test func unreadablePath() throws {
        try inTemporaryFolder { folder in
            let file = folder.appending(path: "plain.toml")
            try Data("name = \"x\"".utf8).write(to: file)
            let url = file.appending(path: "scenario.toml")
            #expect(try refusal(of: url) == "\(url.path): cannot be read (Not a directory)")
        }
    }

    /// A file that root cannot read either: root reads any file whatever its mode bits, but the
    /// kernel checks the modes of /proc/sys files for root too, and this one is write-only.
    static let unreadableForRoot = "/proc/sys/vm/compact_memory"

    /// As root the test takes ``unreadableForRoot``; as anyone else, a file of mode 000.
    @Test(.enabled(if: geteuid() != 0 || FileManager.default.fileExists(atPath: unreadableForRoot)))
    func fileWithoutReadPermission() throws {
        if geteuid() == 0 {
            let url = URL(filePath: Self.unreadableForRoot)
            #expect(try refusal(of: url) == "\(url.path): cannot be read (Permission denied)")
            return
        }
        try inTemporaryFolder { folder in
            let url = folder.appending(path: "unreadable.toml")
            try Data("name = \"x\"".utf8).write(to: url)
            try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: url.path(percentEncoded: false))
            #expect(try refusal(of: url) == "\(url.path): cannot be read (Permission denied)")
        }
    }

    @Test func devNullIsNotARegularFile() throws {
        #expect(try refusal(of: URL(filePath: "/dev/null"))
            == "/dev/null: is not a regular file but a character device; give the path of a scenario file")
    }

    /// Opening a FIFO for reading would wait for a writer forever; it is refused at once.
    @Test func aFIFOIsNotARegularFile() throws {
        try inTemporaryFolder { folder in
            let url = folder.appending(path: "pipe.toml")
            try #require(mkfifo(url.path, 0o600) == 0)
            #expect(try refusal(of: url) == "\(url.path): is not a regular file but a FIFO (a pipe); give the path of a scenario file")
        }
    }

    @Test func emptyFile() throws {
        try inTemporaryFolder { folder in
            let url = folder.appending(path: "empty.toml")
            try Data().write(to: url)
            #expect(try refusal(of: url) == "\(url.path): is empty")
        }
    }

    @Test func aFileOverTheSizeLimitIsRefusedUnread() throws {
        try inTemporaryFolder { folder in
            let url = folder.appending(path: "huge.toml")
            #expect(FileManager.default.createFile(atPath: url.path, contents: nil))
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: 17 << 20)  // sparse: costs no disk
            try handle.close()
            #expect(try refusal(of: url) == "\(url.path): is 17 MiB, more than the 16 MiB a scenario file may have")
        }
    }

    @Test func syntaxErrorInAFileNamesTheFile() throws {
        let error = try #require(throws: ScenarioError.self) { try Scenario.load(contentsOf: Paths.fixture("unclosed-table.toml")) }
        let line = try #require(error.diagnostics.first)
        #expect(line.position?.line == 3)
        #expect(line.description.contains("unclosed-table.toml:3:"))
    }

    @Test func goodFixtureLoads() throws {
        let scenario = try Scenario.load(contentsOf: Paths.fixture("good.toml"))
        #expect(scenario.name == "Good")
        #expect(scenario.flows.map(\.title) == ["Write", "Read"])
    }
}
