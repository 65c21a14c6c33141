import Testing
import TOMLSource

/// What reaches a terminal from a user's file or a job: visible escapes instead of control
/// characters and of the format characters that reorder or hide text.
@Suite struct EscapingTests {
    @Test(arguments: [
        ("plain text", "plain text"),
        ("\u{1B}]0;PWNED\u{07}", #"\u{1B}]0;PWNED\u{7}"#),
        ("line\r\nforged", #"line\u{D}\u{A}forged"#),
        ("tab\there", #"tab\u{9}here"#),
        ("del\u{7F} c1\u{9B}", #"del\u{7F} c1\u{9B}"#),
        ("nul\u{0}", #"nul\u{0}"#),
        ("bidi \u{202E}txt.exe", #"bidi \u{202E}txt.exe"#),
        ("isolate \u{2067}x\u{2069} lrm\u{200E} alm\u{61C}", #"isolate \u{2067}x\u{2069} lrm\u{200E} alm\u{61C}"#),
        ("pay\u{200B}pal\u{2060} bom\u{FEFF} soft\u{AD}hyphen", #"pay\u{200B}pal\u{2060} bom\u{FEFF} soft\u{AD}hyphen"#),
        ("tag\u{E0041}", #"tag\u{E0041}"#),
        ("sep\u{2028}", #"sep\u{2028}"#),
        ("Café 東京 👩‍👩‍👧", "Café 東京 👩‍👩‍👧"),
        ("می\u{200C}خواهم", "می\u{200C}خواهم"),
    ])
    func controlCharactersBecomeVisibleEscapes(text: String, shown: String) {
        #expect(text.escapingControlCharacters == shown)
        #expect(text.escapingControlCharacters.escapingControlCharacters == shown, "escaping twice changes nothing")
    }

    @Test func echoedValuesAreCutAfterSixtyCharacters() {
        #expect(String(repeating: "x", count: 60).echoed() == String(repeating: "x", count: 60))
        #expect(String(repeating: "x", count: 100_000).echoed() == String(repeating: "x", count: 60) + "…")
        // The cut counts what is shown: escapes take room too, and are never split.
        let escaped = String(repeating: "\u{1B}", count: 20).echoed()
        #expect(escaped.count <= 61 && escaped.hasSuffix("…"))
    }

    @Test func aDiagnosticIsOnePrintableLine() {
        let diagnostic = SourceDiagnostic(file: "a\nb.toml", position: SourcePosition(line: 3, column: 7), message: "bad \u{1B}[2J value")
        #expect(diagnostic.description == #"a\u{A}b.toml:3:7: bad \u{1B}[2J value"#)
        #expect(SourceDiagnostic(file: "x.toml", position: nil, message: "is empty").description == "x.toml: is empty")
    }
}
