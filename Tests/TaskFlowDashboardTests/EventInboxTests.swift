@testable import DashboardKit
import TaskFlow
import Testing

/// The engine's events reach the main actor in batches: a burst asks for one drain, not one
/// wake of the dashboard's loop per event (a quit of 100,000 flows spent most of its time waking).
@Suite("Session: event inbox")
struct EventInboxTests {
    @Test func aBurstAsksForOneDrainAndComesOutInOrder() {
        let inbox = EventInbox<TimedFlowEvent>()
        let events = (1...1_000).map { TimedFlowEvent(time: .now + .milliseconds($0), event: .flowQueued(Fixture.info($0, "flow \($0)"))) }
        let drainsAsked = events.filter { inbox.add($0) }.count
        #expect(drainsAsked == 1)
        #expect(inbox.drain().map(\.time) == events.map(\.time))
        #expect(inbox.drain().isEmpty)
        #expect(inbox.add(events[0]), "after a drain, the next event asks for another")
    }
}
