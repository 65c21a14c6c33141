import Testing
@testable import TOMLSource

/// Bytes that TOMLKit must never see, found before it and named at their line and column.
@Suite struct SourceTextTests {
    private func refusal(_ bytes: [UInt8]) throws -> String {
        let problems = try #require(throws: SourceProblems.self) { try SourceFile.text(bytes, file: "f.toml") }
        #expect(problems.diagnostics.count == 1)
        return problems.diagnostics[0].description
    }

    @Test func validTextIsKept() throws {
        #expect(try SourceFile.text(Array("a = \"Café\"\n".utf8), file: "f.toml") == "a = \"Café\"\n")
    }

    @Test func aNULIsReportedAtItsLineAndColumnCountingCharactersNotBytes() throws {
        #expect(try refusal(Array("a = 1\nb = \"é\0\"".utf8))
            == "f.toml:2:7: holds a NUL character (is it a binary file?); TOML text cannot contain one")
    }

    @Test(arguments: [
        ([0xFF], "f.toml:1:1"),
        (Array("ok\nab".utf8) + [0xC3], "f.toml:2:3"),             // cut in the middle of a character
        (Array("x = \"".utf8) + [0xED, 0xA0, 0x80], "f.toml:1:6"), // an encoded surrogate
    ])
    func invalidUTF8IsReportedAtTheFirstBadByte(bytes: [UInt8], place: String) throws {
        #expect(try refusal(bytes) == "\(place): is not UTF-8 text (an invalid byte here)")
    }

    /// The scanner runs before TOMLKit, so it must end on any text, however broken.
    @Test(arguments: ["a = [ } ]", "[[", "x = {", "= = =", "\"unterminated", "a = '''", "[a.\"b", "]]]]", "a.b.c"])
    func theScannerEndsOnBrokenText(text: String) {
        _ = SourceMap(text: text)
    }

    @Test func anInlineArrayPastTheElementLimitIsRefusedAtTheFirstElementTooMany() {
        let text = "a = [" + String(repeating: "1,", count: SourceLimits.arrayElements + 1) + "]"
        let problems = SourceMap.problems(in: text)
        #expect(problems.map(\.position) == [SourcePosition(line: 1, column: 6 + 2 * SourceLimits.arrayElements)])
        #expect(problems.first?.message == "'a' has more than 100000 elements; no array may have more")
        #expect(SourceMap.problems(in: "a = [" + String(repeating: "1,", count: SourceLimits.arrayElements) + "]").isEmpty)
    }

    /// toml++ asserts (aborting the program) on a raw control character in a table header's key;
    /// TOML allows none anywhere, so the scan refuses the first one, wherever it is.
    @Test(arguments: [
        ("[[\u{1B}]0;\u{07}flow.step]]\n", 1, 3, "001B"),
        ("name = \"a\"\n# a bell \u{07} in a comment\n", 2, 10, "0007"),
        ("a = 'x\u{7F}'", 1, 7, "007F"),
        ("a = 1\rb = 2", 1, 6, "000D"),
    ])
    func aRawControlCharacterIsRefusedAtItsPlace(text: String, line: Int, column: Int, code: String) {
        let problems = SourceMap.problems(in: text)
        #expect(problems.map(\.position) == [SourcePosition(line: line, column: column)])
        #expect(problems.first?.message == "a raw control character (U+\(code)) is not allowed in TOML: write it as an escape (\\u\(code)) inside a string, or remove it")
    }

    @Test func tabsAndLineEndsAreNoControlCharacters() {
        #expect(SourceMap.problems(in: "a = 1\t# tab\r\nb = \"\t\"\n").isEmpty)
    }
}
