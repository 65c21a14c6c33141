import Foundation
import Synchronization
import TaskFlow

/// What a program shows to its watchers, as protocol messages: its ``hello``, a ``snapshot(missed:)``
/// of everything watched, and, through a ``subscribe()``d ``FeedSubscription``, every event from
/// then on. The console server fans one feed out to its clients; a ``SessionRecorder`` writes one
/// to a file.
///
/// Subscribe before taking the snapshot: an event that happens in between then arrives after the
/// snapshot that may already show it (a watcher applies it again, harmlessly), and none is lost.
package final class ConsoleFeed: Sendable {
    /// The moment the feed started: messages' `time` counts seconds from here.
    package let origin: ContinuousClock.Instant
    /// The program's hello.
    package let hello: ServerHello
    /// The program's job queues, if it serves them.
    package let queues: (any JobQueueSource)?
    /// The program's job store, if it serves one.
    package let store: (any JobStoreSource)?
    private let flowEvents: @Sendable (_ dropped: @escaping @Sendable () -> Void) -> AsyncStream<TimedFlowEvent>
    private let managerSnapshot: @Sendable () -> ManagerSnapshot

    /// How many flow events a subscription holds before it drops newer ones (each about a
    /// hundred bytes): what a consumer that falls behind costs the program at most. It then
    /// catches up with a snapshot instead (``FeedSubscription/run(_:)``).
    package static let backlogLimit = 10_000

    /// The shortest time between two snapshots sent because events were dropped.
    package static let resyncInterval = Duration.milliseconds(100)

    /// A feed of the flows `events(dropped)` and `snapshot()` report (a manager's bounded
    /// `timedEvents(limit:dropped:)` and `snapshot()`), of `queues` and of `store`, introduced as
    /// `title`. `events` calls `dropped` for each event it had to drop, from the flow that
    /// emitted it (maybe under the engine's locks, maybe from several at once): it must only
    /// take note.
    package init(
        title: String, readOnly: Bool,
        events: @escaping @Sendable (_ dropped: @escaping @Sendable () -> Void) -> AsyncStream<TimedFlowEvent>,
        snapshot: @escaping @Sendable () -> ManagerSnapshot, queues: (any JobQueueSource)? = nil,
        store: (any JobStoreSource)? = nil
    ) {
        origin = .now
        hello = ServerHello(
            program: ProcessInfo.processInfo.processName, pid: getpid(), title: title, started: Date(), readOnly: readOnly)
        flowEvents = events
        managerSnapshot = snapshot
        self.queues = queues
        self.store = store
    }

    /// A feed of `manager`'s flows, `queues` and `store`.
    package convenience init<State>(
        manager: TaskFlowManager<State>, queues: (any JobQueueSource)? = nil, store: (any JobStoreSource)? = nil,
        title: String, readOnly: Bool = false
    ) {
        self.init(
            title: title, readOnly: readOnly, events: { manager.timedEvents(limit: Self.backlogLimit, dropped: $0) },
            snapshot: { manager.snapshot() },
            queues: queues, store: store)
    }

    /// Seconds from the feed's start to `instant`.
    package func time(of instant: ContinuousClock.Instant) -> Double { (instant - origin).wireSeconds }

    /// Everything watched, now; `missed` for a client that fell behind.
    package func snapshot(missed: Int? = nil) -> ServerMessage {
        .snapshot(
            SnapshotMessage(
                time: time(of: .now), manager: managerSnapshot(), origin: origin, queues: queues?.queues, store: store?.name,
                missed: missed))
    }

    /// Subscribes to every watched source. Until the subscription runs, events wait in it.
    package func subscribe() -> FeedSubscription {
        let dropped = DroppedEvents()
        let (resyncs, resync) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        // Rung once per run of drops: `dropped` runs in the flow that emitted the event, for
        // every event a stalled client misses, and a yield per drop cost that flow a stream's
        // generic code each time; the resync takes the whole count anyway.
        let flows = flowEvents {
            if dropped.add() { resync.yield() }
        }
        return FeedSubscription(
            feed: self, flows: flows, dropped: dropped, resyncs: resyncs, resync: resync, jobs: queues?.events(),
            store: store?.changeLog())
    }

    /// Hello, a snapshot, then every event, for one consumer that keeps up (the stream's buffer
    /// is unbounded); the sources are unsubscribed when the consumer stops iterating.
    package func messages() -> AsyncStream<ServerMessage> {
        let subscription = subscribe()
        let (stream, continuation) = AsyncStream<ServerMessage>.makeStream()
        continuation.yield(.hello(hello))
        continuation.yield(snapshot())
        let task = Task {
            await subscription.run { continuation.yield($0) }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }
}

/// A feed's sources, subscribed: ``run(_:)`` hands on their events as messages.
package struct FeedSubscription: Sendable {
    let feed: ConsoleFeed
    let flows: AsyncStream<TimedFlowEvent>
    /// Flow events the subscription dropped since the last resync.
    let dropped: DroppedEvents
    /// Rings when events were dropped; ends with the flows.
    let resyncs: AsyncStream<Void>
    let resync: AsyncStream<Void>.Continuation
    let jobs: AsyncStream<JobEvent>?
    let store: AsyncStream<LogLine>?

    /// Hands every event to `deliver`, as a message, until the calling task is cancelled (which
    /// unsubscribes) or the sources end. Events of one source come in order; `deliver` may be
    /// called from several tasks at once, one per source. When flow events had to be dropped
    /// (the consumer fell ``ConsoleFeed/backlogLimit`` behind), a `snapshot` with `missed` is
    /// delivered at once: it shows every dropped event's effect, and the events still held that
    /// follow it apply again harmlessly.
    package func run(_ deliver: @escaping @Sendable (ServerMessage) -> Void) async {
        await withDiscardingTaskGroup { group in
            group.addTask { [feed, flows, resync] in
                for await timed in flows {
                    deliver(.flow(FlowMessage(time: feed.time(of: timed.time), event: timed.event)))
                }
                resync.finish()
            }
            group.addTask { [feed, resyncs, dropped] in
                for await _ in resyncs {
                    let missed = dropped.take()
                    guard missed > 0 else { continue }
                    deliver(feed.snapshot(missed: missed))
                    // At most one snapshot per interval: taking one holds the engine's locks, and
                    // during a long burst drops ring again at once; a screen redraws every 33 ms.
                    try? await Task.sleep(for: ConsoleFeed.resyncInterval)
                }
            }
            if let jobs {
                // Queue events carry no time: the feed stamps them as they arrive.
                group.addTask { [feed] in
                    for await event in jobs {
                        deliver(.job(JobMessage(time: feed.time(of: .now), event: WireJobEvent(event, origin: feed.origin))))
                    }
                }
            }
            if let store {
                group.addTask { [feed] in
                    for await line in store { deliver(.storeChange(StoreChangeMessage(time: feed.time(of: .now), line: line))) }
                }
            }
        }
    }
}

/// How many flow events a subscription dropped since they were last taken.
final class DroppedEvents: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more; true if it is the first since the count was last taken.
    func add() -> Bool { count.add(1, ordering: .relaxed).oldValue == 0 }

    /// The count, reset to zero.
    func take() -> Int { count.exchange(0, ordering: .relaxed) }
}
