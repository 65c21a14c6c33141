@testable import DashboardKit
import Foundation
import Testing
import TOMLSource

@Suite("Themes")
struct ThemeTests {
    private let catalog = ThemeCatalog(directories: [ViewSnapshotTests.themesDirectory])

    @Test func shippedThemesAllLoad() throws {
        #expect(Set(catalog.names).isSuperset(of: ["default", "light", "high-contrast", "monochrome"]))
        for name in catalog.names {
            let theme = try catalog.load(name)
            #expect(theme.name == name)
            #expect(!theme.styles.isEmpty)
        }
    }

    @Test func monochromeUsesNoColour() throws {
        let theme = try catalog.load("monochrome")
        #expect(theme.styles.values.allSatisfy { $0.foreground == nil && $0.background == nil })
        #expect(theme.style(for: .selection).reverse)
    }

    @Test func colourSyntaxes() throws {
        let source = """
            header = { fg = "bright-red", bg = 236 }
            [status]
            running = "#00ff00"
            """
        let theme = try ThemeParser().parse(source, name: "t", file: "t.toml")
        #expect(theme.style(for: .header).foreground == .indexed(9))
        #expect(theme.style(for: .header).background == .indexed(236))
        #expect(theme.style(for: .statusRunning).foreground == .rgb(red: 0, green: 255, blue: 0))
    }

    /// The theme's one problem; records an issue when there is not exactly one.
    private func problem(in source: String, file: String = "Themes/bad.toml") -> SourceDiagnostic? {
        do {
            _ = try ThemeParser().parse(source, name: "bad", file: file)
            Issue.record("\(source.debugDescription) parsed")
            return nil
        } catch {
            #expect(error.diagnostics.count == 1, "\(error.diagnostics)")
            #expect(error.exitCode == 2)
            return error.diagnostics.first
        }
    }

    @Test(arguments: [
        (#"header = { fg = "gren" }"#, "1:17",
         ##"'header.fg': unknown colour "gren"; use a name like "bright-red", 0-255 or "#RRGGBB""##),
        ("title = {}\n[status]\nrunning = { fg = 300 }", "3:18", "'status.running.fg': colour index 300 is outside 0-255"),
        ("[status]\n\nfailed = { bold = \"yes\" }", "3:19", "'status.failed.bold' must be true or false, not a string"),
        ("[status]\nrunning = { blink = true }", "2:13", "unknown attribute 'blink'; use fg, bg, bold, underline, reverse, dim"),
        ("[lock]\nmode = \"red\"", "2:1", "unknown style role 'lock.mode'; every role is set in Themes/default.toml"),
        ("[lock]\nreed = \"red\"", "2:1", "unknown style role 'lock.reed' (did you mean 'lock.read'?)"),
        ("selection = [1, 2]", "1:13", ##"'selection': a colour is a name, an index 0-255 or "#RRGGBB", not an array"##),
        // An unknown table is reported at its header.
        ("name = \"bad\"\nnormal = {}\n[roles]", "3:1", "unknown style role 'roles'; every role is set in Themes/default.toml"),
    ])
    func aBadValueIsReportedAtItsLineAndColumn(source: String, position: String, message: String) throws {
        let found = try #require(problem(in: source))
        #expect(found.description == "Themes/bad.toml:\(position): \(message)")
    }

    @Test func everyProblemIsReportedInFileOrder() throws {
        let source = "name = \"bad\"\nnormal = {}\n\n[status]\nrunning = { fg = \"green\", blink = true }\nqueued = 300\n"
        for text in [source, source.replacingOccurrences(of: "\n", with: "\r\n")] {
            let error = try #require(throws: ThemeError.self) { try ThemeParser().parse(text, name: "bad", file: "bad.toml") }
            #expect(error.description == """
                bad.toml:5:27: unknown attribute 'blink'; use fg, bg, bold, underline, reverse, dim
                bad.toml:6:10: 'status.queued': colour index 300 is outside 0-255
                """, "CRLF lines count like LF lines")
            #expect(error.line == 5 && error.column == 27)
        }
    }

    @Test func syntaxErrorNamesTheLine() throws {
        let found = try #require(problem(in: "title = {}\nheader = { fg = \"red\"\n", file: "bad.toml"))
        #expect(found.position?.line == 2)
        #expect(found.description.hasPrefix("bad.toml:2:"))
        #expect(found.message.hasPrefix("invalid TOML"))
    }

    /// TOMLKit crashed iterating a table whose key holds NUL; the file is refused before.
    @Test(arguments: [#""\u0000" = 1"#, "header = { fg = \"red\\u0000\" }", "[status]\n\"a\\U00000000\" = \"red\""])
    func aNULEscapeIsRefusedAtItsPlace(source: String) throws {
        let found = try #require(problem(in: source))
        #expect(found.message == #"a string or key cannot hold the NUL character (\u0000)"#)
        #expect(found.position != nil)
    }

    @Test func controlCharactersInAValueAreEscapedAndLongValuesCut() throws {
        // TOML escapes for ESC ] 0 ; PWNED BEL CR LF, then a forged second error line.
        let forged = #"\u001B]0;PWNED\u0007\r\nfake.toml:1:1: everything is fine"# + String(repeating: "x", count: 100_000)
        let found = try #require(problem(in: "header = { fg = \"\(forged)\" }"))
        let line = found.description
        #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(line.contains(#"\u{1B}]0;PWNED\u{7}\u{D}\u{A}fake.toml"#))
        #expect(line.count < 200)
        #expect(line.contains("…"))
    }

    @Test func unknownThemeNameListsTheAvailableOnes() throws {
        let error = try #require(throws: ThemeError.self) { try catalog.load("nope") }
        #expect(error.description.hasPrefix("nope: no such theme (available: default, "))
        #expect(error.exitCode == 2)
    }

    /// TOMLKit reads a C string, so a NUL used to end the theme silently where it stood.
    @Test func aNULByteInAThemeFileIsReportedAtItsPlace() throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "nul-\(UUID()).toml")
        try Data("header = \"red\"\ntitle = \"bl\u{0}ue\"\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let error = try #require(throws: ThemeError.self) { try catalog.load(url.path) }
        #expect(error.description == "\(url.path):2:12: holds a NUL character (is it a binary file?); TOML text cannot contain one")
        #expect(error.exitCode == 2)
    }

    @Test func aThemePathThatIsNoRegularFileSaysSo() throws {
        let error = try #require(throws: ThemeError.self) { try catalog.load("/dev/null") }
        #expect(error.description == "/dev/null: is not a regular file but a character device; give the path of a theme file")
    }

    @Test func colorsDegradeToWhatTheTerminalHas() {
        let orange = ThemeColor.rgb(red: 255, green: 135, blue: 0)
        #expect(orange.paletteIndex(for: .full) == 208)
        #expect(orange.paletteIndex(for: .sixteen).map { $0 < 16 } == true)
        #expect(ThemeColor.indexed(9).paletteIndex(for: .eight) == 1, "bright red becomes red")
        #expect(ThemeColor.indexed(9).paletteIndex(for: .monochrome) == nil)
        #expect(ThemeColor.terminalDefault.paletteIndex(for: .eight) == -1)
    }

    @Test func cyclingThemesWrapsAround() throws {
        let names = catalog.names
        let last = try catalog.load(names[names.count - 1])
        #expect(try catalog.theme(after: last.name).name == names[0])
    }
}
