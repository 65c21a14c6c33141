import Foundation
import Testing
import TaskFlowStore
@testable import taskflow

/// The job store's events in the dashboard's event log: what happened, to which job, and why.
@Suite("Dashboard: job store events in the log")
struct StoreEventLineTests {
    @Test func eachEventSaysWhatHappenedAndWhy() {
        let id = StoredJobID(12)
        let lines = [
            StoredJobEvent.submitted(id, kind: "send-email"),
            .parked(id, kind: "send-email"),
            .retryScheduled(id, kind: "send-email", retries: 2, at: Date.distantPast, reason: "server answered 500"),
            .failed(id, kind: "send-email", reason: "550 no such mailbox\u{1B}[2J"),
            .recovered(id, kind: "send-email"),
        ].map(\.logLine)
        #expect(lines.map(\.text) == [
            "job 12 send-email submitted",
            "job 12 send-email parked until conditions change",
            "job 12 send-email retry 2 in 0.0s: server answered 500",
            "job 12 send-email failed: 550 no such mailbox\\u{1B}[2J",
            "job 12 send-email recovered from a worker that died",
        ])
        #expect(lines.map(\.level) == [.info, .warning, .warning, .error, .warning])
    }

    @Test func aReasonShowsNoPassword() {
        let event = StoredJobEvent.retryScheduled(
            StoredJobID(3), kind: "sync", retries: 1, at: Date.distantPast, reason: "connect failed: postgres://ann:s3cret@db/app refused")
        #expect(event.logLine.text == "job 3 sync retry 1 in 0.0s: connect failed: postgres://ann:‹redacted›@db/app refused")
    }
}
