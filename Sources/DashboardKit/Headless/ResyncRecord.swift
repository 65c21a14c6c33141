import TaskFlow

/// A resync as a JSON object, for `--json` beside the ``EventRecord``s: an attached viewer fell
/// behind, `missed` events were lost, and it took the program's snapshot again, letting go of
/// the flows in `ended`, whose end it never saw. `event` is always `resync`.
package struct ResyncRecord: Codable, Sendable, Hashable {
    /// Seconds since the dashboard started.
    package var time: Double
    /// `resync`.
    package var event = "resync"
    /// How many events were lost.
    package var missed: Int
    /// The numbers of the flows let go.
    package var ended: [Int]

    /// The record of a resync at `time` after `missed` lost events, which let go of `ended`.
    package init(missed: Int, ended: [FlowID], at time: Duration) {
        self.time = time.recordSeconds
        self.missed = missed
        self.ended = ended.map(\.rawValue)
    }
}
