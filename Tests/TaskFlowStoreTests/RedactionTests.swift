import Foundation
import Testing
import TaskFlowStore

/// What the CLI and the dashboard show of a payload: never a credential.
@Suite struct RedactionTests {
    @Test func secretFieldsAtAnyDepthAndURLPasswordsAreMasked() {
        let payload = Data(#"""
            {"to":"ann@example.com","Authorization":"Bearer x","items":[{"cookie":"c"},{"name":"n"}],
             "dsn":"postgres://ann:s3cret@db.example.com/app","note":"see https://example.com/a:b@c","author":"Ann"}
            """#.utf8)
        let shown = PayloadRedaction.redacted(payload)
        #expect(shown == #"{"author":"‹redacted›","Authorization":"‹redacted›","dsn":"postgres://ann:‹redacted›@db.example.com/app","#
            + #""items":[{"cookie":"‹redacted›"},{"name":"n"}],"note":"see https://example.com/a:b@c","to":"ann@example.com"}"#)
        #expect(!shown.contains("s3cret") && !shown.contains("Bearer"))
    }

    @Test func aPayloadThatIsNotJSONIsDescribedNotShown() {
        #expect(PayloadRedaction.redacted(Data("password=hunter2".utf8)) == "(16 bytes, not JSON)")
    }
}
