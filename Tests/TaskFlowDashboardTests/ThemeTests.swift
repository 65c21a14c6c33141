import Testing
@testable import TaskFlowDashboard

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

    @Test(arguments: [
        (#"header = { fg = "gren" }"#, 1, "header.fg", "unknown colour"),
        ("title = {}\n[status]\nrunning = { fg = 300 }", 3, "status.running.fg", "outside 0-255"),
        ("[status]\n\nfailed = { bold = \"yes\" }", 3, "status.failed.bold", "true or false"),
        ("[status]\nrunning = { blink = true }", 2, "status.running.blink", "unknown attribute"),
        ("[lock]\nmode = \"red\"", 2, "lock.mode", "unknown style role"),
        ("selection = [1, 2]", 1, "selection", "a colour must be"),
    ])
    func badValuesNameFileLineAndKey(source: String, line: Int, key: String, message: String) {
        #expect {
            _ = try ThemeParser().parse(source, name: "bad", file: "Themes/bad.toml")
        } throws: { error in
            guard let error = error as? ThemeError else { return false }
            return error.file == "Themes/bad.toml" && error.line == line && error.key == key
                && error.message.contains(message)
                && error.description.hasPrefix("theme Themes/bad.toml:\(line): key '\(key)':")
        }
    }

    @Test(arguments: [
        // An unknown table is reported at its header line.
        ("name = \"bad\"\nnormal = {}\n[roles]", 3, "roles", "unknown style role"),
        // The first bad line in the file, not the first key alphabetically (`queued`).
        ("name = \"bad\"\nnormal = {}\n\n[status]\nrunning = { fg = \"green\", blink = true }\nqueued = 300", 5,
         "status.running.blink", "unknown attribute"),
        // Within a multi-line table too (`bold` sorts before `underline`).
        ("[status.running]\nunderline = \"yes\"\nbold = \"yes\"", 2, "status.running.underline", "true or false"),
    ])
    func theFirstErrorInTheFileIsReported(source: String, line: Int, key: String, message: String) {
        #expect {
            _ = try ThemeParser().parse(source, name: "bad", file: "bad.toml")
        } throws: { error in
            guard let error = error as? ThemeError else { return false }
            return error.line == line && error.key == key && error.message.contains(message)
        }
    }

    @Test func syntaxErrorNamesTheLine() {
        #expect {
            _ = try ThemeParser().parse("title = {}\nheader = { fg = \"red\"\n", name: "bad", file: "bad.toml")
        } throws: { error in
            (error as? ThemeError)?.line == 2 && (error as? ThemeError)?.message.hasPrefix("invalid TOML") == true
        }
    }

    @Test func unknownThemeNameListsTheAvailableOnes() {
        #expect {
            _ = try catalog.load("nope")
        } throws: { error in
            String(describing: error).contains("available: default")
        }
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
