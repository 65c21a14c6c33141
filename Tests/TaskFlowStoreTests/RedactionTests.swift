import Foundation
import Testing
import TaskFlowStore

/// What the CLI and the dashboard show of a job's text: never a credential.
@Suite struct RedactionTests {
    @Test func secretFieldsAtAnyDepthAndURLPasswordsAreMasked() {
        let payload = Data(#"""
            {"to":"ann@example.com","Authorization":"Bearer x","items":[{"cookie":"c"},{"name":"n"}],
             "dsn":"postgres://ann:s3cret@db.example.com/app","note":"see https://example.com/a:b@c","author":"Ann"}
            """#.utf8)
        let shown = JobRedaction.redacted(payload: payload)
        #expect(shown == #"{"author":"‹redacted›","Authorization":"‹redacted›","dsn":"postgres://ann:‹redacted›@db.example.com/app","#
            + #""items":[{"cookie":"‹redacted›"},{"name":"n"}],"note":"see https://example.com/a:b@c","to":"ann@example.com"}"#)
        #expect(!shown.contains("s3cret") && !shown.contains("Bearer"))
    }

    @Test func aPayloadThatIsNotJSONIsDescribedNotShown() {
        #expect(JobRedaction.redacted(payload: Data("password=hunter2".utf8)) == "(16 bytes, not JSON)")
    }

    @Test(arguments: [
        ("connect failed: postgres://ann:s3cret@db/app refused", "connect failed: postgres://ann:‹redacted›@db/app refused"),
        ("postgres://ann:p@ss@db", "postgres://ann:‹redacted›@db"),
        ("postgres://ann:p@ss@db:5432/app?sslmode=require", "postgres://ann:‹redacted›@db:5432/app?sslmode=require"),
        ("two: x://a:1@h and svn+ssh://b:2@k.", "two: x://a:‹redacted›@h and svn+ssh://b:‹redacted›@k."),
        ("a://b:c://d:e@f", "a://b:‹redacted›@f"),
        ("https://h/login?user=ann&password=s3cret&next=/", "https://h/login?user=ann&password=‹redacted›&next=/"),
        ("https://h/?PASSWD=s3cret#top", "https://h/?PASSWD=‹redacted›"),
        ("host=db user=ann password='s3 cret' sslmode=require", "host=db user=ann password='‹redacted›' sslmode=require"),
        ("jdbc:sqlserver://db;user=ann;pwd=s3cret;encrypt=true", "jdbc:sqlserver://db;user=ann;pwd=‹redacted›;encrypt=true"),
        ("refused: api_key=abc123 (HTTP 401)", "refused: api_key=‹redacted› (HTTP 401)"),
        ("postgres://ann:pa/ss@db/app", "postgres://ann:‹redacted›@db/app"),
        ("postgres://u:p@[::1]:5432/db", "postgres://u:‹redacted›@[::1]:5432/db"),
        (#"{"dsn":"postgres:\/\/ann:s3cret@db\/app"}"#, #"{"dsn":"postgres:\/\/ann:‹redacted›@db\/app"}"#),
        (#"HTTP 400: {"user":"ann", "password" : "s3cret"}"#, #"HTTP 400: {"user":"ann", "password" : "‹redacted›"}"#),
        ("sent Authorization: Bearer abc.def to h", "sent Authorization: ‹redacted› to h"),
        ("host=db password = s3cret", "host=db password = ‹redacted›"),
        ("DB_PASSWORD: s3cret", "DB_PASSWORD: ‹redacted›"),
    ])
    func passwordsInTextAreMasked(text: String, shown: String) {
        #expect(JobRedaction.redacted(text) == shown)
    }

    @Test(arguments: [
        "see https://example.com/a:b@c", "mail ann@example.com", "https://db:5432/app", "postgres://ann@db/app",
        "x://ann:@db", "a=b c:d@e password=", "Café 東京 👩‍👩‍👧 ratio=1:2",
        "http://localhost:8080/users/ann@example.com", "https://[::1]:5432/a@b", "at 12:30 user: ann@example.com",
    ])
    func textWithoutSecretsIsUnchanged(text: String) {
        #expect(JobRedaction.redacted(text) == text)
    }

    @Test func urlsAsFieldNamesAreMaskedAndNamesThatCollideKeepEveryField() throws {
        let payload = Data(#"""
            {"x://a:one@h":1,"x://a:two@h":2,"x://a:‹redacted›@h":0,"x://a:‹redacted›@h (2)":9,
             "servers":{"postgres://ann:s3cret@db/app":"primary"}}
            """#.utf8)
        let shown = JobRedaction.redacted(payload: payload)
        #expect(!shown.contains("one") && !shown.contains("two") && !shown.contains("s3cret"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(shown.utf8)) as? [String: Any])
        #expect(object.count == 5, "no field is lost: \(shown)")
        #expect(object["x://a:‹redacted›@h"] as? Int == 0 && object["x://a:‹redacted›@h (2)"] as? Int == 9, "names left alone keep theirs")
        #expect(object["x://a:‹redacted›@h (3)"] as? Int == 1 && object["x://a:‹redacted›@h (4)"] as? Int == 2)
        #expect(object["servers"] as? [String: String] == ["postgres://ann:‹redacted›@db/app": "primary"])
    }

    /// A text anyone can submit is masked in time linear in its length: eight times the text
    /// takes about eight times as long, and a scan that turns quadratic again takes 64 times
    /// as long (the regular expression this replaced took 1.5 s for 16 KB of hex and hours for
    /// a megabyte). A ratio of two sizes in the same run, each the fastest of a few, not a
    /// time: a loaded machine slows both alike, and the bound of 24 leaves room either way.
    @Test(arguments: Self.hostileTexts.keys.sorted())
    func hostileTextIsMaskedInLinearTime(name: String) throws {
        let hostile = try #require(Self.hostileTexts[name])
        let small = try Self.fastestMasking(hostile.text(bytes: 32_768), runs: 5)
        let large = try Self.fastestMasking(hostile.text(bytes: 262_144), runs: 3)
        let ratio = large / small
        #expect(ratio < 24, "\(name): 256 KB took \(large), 32 KB \(small): \(ratio)×")
    }

    /// The fastest of `runs` maskings of `text`, alone and as a payload's name and value.
    private static func fastestMasking(_ text: String, runs: Int) throws -> Duration {
        let payload = try JSONSerialization.data(withJSONObject: [text: text])
        let clock = ContinuousClock()
        return (0..<runs).map { _ in
            clock.measure {
                _ = JobRedaction.redacted(text)
                _ = JobRedaction.redacted(payload: payload)
            }
        }.min() ?? .zero
    }

    /// A text of repeated `unit`s between `prefix` and `suffix`, of about the size asked.
    private struct HostileText {
        var prefix = ""
        let unit: String
        var suffix = ""

        func text(bytes: Int) -> String {
            prefix + String(repeating: unit, count: bytes / unit.utf8.count) + suffix
        }
    }

    /// Texts that made the regular expression, or could make a careless scan, go back over
    /// what it read: long runs of scheme or name characters, URLs that start inside others, an
    /// authority or a password that never ends, quotes never closed.
    private static let hostileTexts = [
        "hex": HostileText(unit: "0123456789abcdef"),
        "a:": HostileText(unit: "a:"),
        "x://a:": HostileText(unit: "x://a:"),
        "one long authority": HostileText(prefix: "x://", unit: "a:"),
        "one long password": HostileText(prefix: "x://a:", unit: "@"),
        "a=": HostileText(unit: "a="),
        "one long name": HostileText(unit: "pa", suffix: "ss=x"),
        "password=": HostileText(unit: "password="),
        "unclosed quotes": HostileText(unit: "pwd='"),
        "cut passwords": HostileText(unit: "x://a:b/"),
        "escaped cut passwords": HostileText(unit: #"x:\/\/a:b\/"#),
        "token: Bearer": HostileText(unit: "token: Bearer "),
        "quoted names": HostileText(unit: #""key" :"#),
    ]
}
