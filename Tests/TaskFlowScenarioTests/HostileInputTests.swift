import Foundation
import Testing
import TOMLSource
@testable import TaskFlowScenario

/// Files written to break things: each is refused with one printable line at its
/// place, never a crash, a hang or a control character reaching the terminal.
@Suite struct HostileInputTests {
    /// Whether `text` holds a character a terminal would act on rather than show.
    private func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
    }

    /// TOMLKit's table iterator force-unwrapped a lookup by a key it had cut at the NUL: exit 132.
    @Test func aKeyHoldingNULIsRefusedNotACrash() throws {
        let error = try #require(throws: ScenarioError.self) { try Scenario.load(contentsOf: Paths.fixture("nul-key.toml")) }
        #expect(error.description.hasSuffix(#"nul-key.toml:1:2: a string or key cannot hold the NUL character (\u0000)"#))
        #expect(error.exitCode == 2)
    }

    /// TOMLKit cuts strings at a NUL: the title would silently lose its end.
    @Test func aValueHoldingNULIsRefusedAtItsPlace() throws {
        let found = try #require(problem(in: scenario(step: #"main = "Save\U00000000 draft""#)))
        #expect(found.description == #"test.toml:6:13: a string or key cannot hold the NUL character (\u0000)"#)
    }

    /// `[[flow.step]]`, then `steps` nested `depth` times below it.
    private func nested(depth: Int) -> String {
        var text = "name = \"Deep\"\n[[flow]]\ntitle = \"F\"\n"
        var header = "flow.step"
        for level in 0..<depth {
            text += "[[\(header)]]\nsequence = \"S\(level)\"\n"
            header += ".steps"
        }
        return text + "[[\(header)]]\nmain = \"M\"\n"
    }

    /// Depth 1,000 took 2.5 s and 2,000 18.5 s to check; now anything past the limit stops the
    /// scan where it crosses it.
    @Test func nestingPastTheLimitIsRefusedWhereItCrossesIt() throws {
        #expect(problems(in: nested(depth: 45)).isEmpty, "45 nested steps are fine")
        let found = try #require(problem(in: nested(depth: 2_000)))
        // Line 101 is the kind key of the step whose table is 100 deep: the key makes 101.
        #expect(found.description == "test.toml:101:1: keys, tables and arrays nest 101 deep here; at most 100 levels are allowed")
    }

    /// Inline arrays nested far deeper than the limit, which a recursive reader would overflow
    /// its stack on.
    @Test func deepInlineArraysAreRefusedWithoutRecursingThroughThem() throws {
        let text = "name = [" + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_001)
        let found = try #require(problem(in: text))
        #expect(found.position == SourcePosition(line: 1, column: 108))
        #expect(found.message.hasPrefix("keys, tables and arrays nest 101 deep here"))
    }

    /// 16 MiB of `[[flow]]` headers took 18 s and 900 MB to be told it had too many flows; the
    /// scan now stops at the first flow past the limit, before TOMLKit builds any table.
    @Test func flowsPastTheLimitAreRefusedAtTheFirstOneTooMany() throws {
        let text = "name = \"Many\"\n" + String(repeating: "[[flow]]\n", count: Scenario.maximumFlows + 1)
        let found = try #require(problem(in: text))
        #expect(found.description == "test.toml:\(Scenario.maximumFlows + 2):1: 'flow' has more than 100000 elements; no array may have more")
    }

    /// A value that set the terminal's title and forged a second, reassuring error line.
    @Test func controlCharactersInEchoedValuesAreEscaped() throws {
        let title = #"\u001B]0;PWNED\u0007\r\nfake.toml:1:1: all fine"#
        let found = try #require(problem(in: scenario(flow: "access = \"\(title)\"", step: "main = \"M\"")))
        #expect(!hasControlCharacter(found.description))
        #expect(found.description == #"test.toml:4:10: 'access' must be "read" or "write", not "\u{1B}]0;PWNED\u{7}\u{D}\u{A}fake.toml:1:1: all fine""#)
    }

    @Test func aLongValueIsCutInTheMessage() throws {
        let found = try #require(problem(in: scenario(step: "task = \"T\"\nduration = \"\(String(repeating: "9", count: 100_000))\"")))
        #expect(found.message == "'duration' must be a duration like \"300ms\", \"1.5s\" or \"2m\", not \"\(String(repeating: "9", count: 60))…\"")
    }

    /// A table is named by its title in messages about its keys: a short cut, so the message
    /// still ends on a reasonable line.
    @Test func aLongTitleNamingATableIsCutShort() throws {
        let title = String(repeating: "T", count: 1_000)
        let found = try #require(problem(in: scenario(step: "main = \"\(title)\"\nbogus = 1")))
        #expect(found.message.hasPrefix("unknown key 'bogus' in main step '\(String(repeating: "T", count: 30))…'; expected one of:"))
    }

    @Test func theCheckSummaryEscapesTheName() throws {
        let text = #"name = "Clear\u001B[2J screen""# + "\n" + scenario(step: "main = \"M\"").split(separator: "\n").dropFirst().joined(separator: "\n")
        let summary = ScenarioSummary(try Scenario.parse(text))
        #expect(summary.description.hasPrefix(#"Clear\u{1B}[2J screen"#))
        #expect(!hasControlCharacter(summary.description.replacingOccurrences(of: "\n", with: "")))
    }

    @Test func aFileOfGarbageReportsAFewLinesAndCountsTheRest() throws {
        let text = (1...200).map { "key\($0) = 1" }.joined(separator: "\n")
        let error = try #require(throws: ScenarioError.self) { try Scenario.parse(text, file: "garbage.toml") }
        let lines = error.description.split(separator: "\n")
        #expect(lines.count == SourceLimits.reportedDiagnostics + 1)
        // 200 unknown keys, 'name' and 'flow' missing: 202 problems.
        #expect(lines.last == "garbage.toml: \(202 - SourceLimits.reportedDiagnostics) more problems not shown")
    }
}
