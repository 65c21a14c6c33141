import ConsoleProtocol
import TaskFlow
import TaskFlowSupport
import TaskFlowTestSupport
import Testing

/// A feed whose consumer falls behind holds a bounded backlog and catches up with a snapshot:
/// a console's memory does not grow with the program's burst of events.
@Suite struct FeedBacklogTests {
    @Test func aConsumerThatFallsBehindKeepsABoundedBacklogAndGetsASnapshotWithTheMissedCount() async throws {
        let manager = TaskFlowManager()
        // The manager's own feed, but counting its drops for the test.
        let drops = Protected(0)
        let feed = ConsoleFeed(
            title: "Burst", readOnly: false,
            events: { dropped in
                manager.timedEvents(limit: ConsoleFeed.backlogLimit) {
                    drops.withLock { $0 += 1 }
                    dropped()
                }
            },
            snapshot: { manager.snapshot() })
        let subscription = feed.subscribe()
        // Nobody consumes while the flow emits two events per step (started, finished): twice the
        // backlog.
        let steps = ConsoleFeed.backlogLimit
        let flow = manager.execute(title: "Burst") { flow in
            for step in 0..<steps { try await flow.task(title: "step \(step)", apply: { _ in }) }
        }
        try await flow.value
        // Each event is posted to the subscription as the flow emits it: by the flow's end the
        // backlog is full and the rest were dropped, the test's premise.
        #expect(drops.withLock { $0 } >= 2 * steps - ConsoleFeed.backlogLimit)

        // `Protected`, not `Mutex`: ThreadSanitizer does not see `Mutex`'s lock (see TaskFlowSupport).
        let received = Protected<(flowEvents: Int, missed: [Int], sawCompletion: Bool)>((0, [], false))
        let consumer = Task {
            await subscription.run { message in
                received.withLock { received in
                    switch message {
                    case .flow(let message):
                        received.flowEvents += 1
                        if case .statusChanged(_, .completed) = message.event.core { received.sawCompletion = true }
                    case .snapshot(let snapshot):
                        received.missed.append(snapshot.missed ?? 0)
                        if snapshot.undoable.contains(where: { $0.core.id == flow.id }) { received.sawCompletion = true }
                    default: break
                    }
                }
            }
        }
        // The consumer gets at least the `backlogLimit` events held and a snapshot counting the
        // ones dropped; delivered and missed together are every event the flow emitted.
        let caughtUp = await eventually {
            received.withLock { received in
                received.sawCompletion && !received.missed.isEmpty && received.flowEvents >= ConsoleFeed.backlogLimit
                    && received.flowEvents + received.missed.reduce(0, +) >= 2 * steps
            }
        }
        consumer.cancel()
        let (flowEvents, missed, _) = received.withLock { $0 }
        #expect(caughtUp, "the backlog's events, a snapshot showing the flow completed, every event delivered or counted missed: \(flowEvents), \(missed)")
    }
}
