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
        let feed = ConsoleFeed(manager: manager, title: "Burst")
        let subscription = feed.subscribe()
        // Nobody consumes while the flow emits two events per step (started, finished): twice the
        // backlog.
        let steps = ConsoleFeed.backlogLimit
        let flow = manager.execute(title: "Burst") { flow in
            for step in 0..<steps { try await flow.task(title: "step \(step)", apply: { _ in }) }
        }
        try await flow.value

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
                        if snapshot.manager.undoable.contains(where: { $0.id == flow.id }) { received.sawCompletion = true }
                    default: break
                    }
                }
            }
        }
        // The backlog is full, so exactly `backlogLimit` events were held (the oldest).
        let caughtUp = await eventually {
            received.withLock { $0.sawCompletion && !$0.missed.isEmpty && $0.flowEvents == ConsoleFeed.backlogLimit }
        }
        consumer.cancel()
        let (flowEvents, missed, _) = received.withLock { $0 }
        #expect(caughtUp, "the backlog's events and a snapshot showing the flow completed: \(flowEvents), \(missed)")
        #expect(flowEvents + missed.reduce(0, +) >= 2 * steps, "every event was delivered or counted missed: \(missed)")
    }
}
