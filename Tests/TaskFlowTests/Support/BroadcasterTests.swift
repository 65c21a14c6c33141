import Synchronization
import TaskFlowSupport
import Testing

/// `manager.events`, `queue.events` and `store.changes` are each a `Broadcaster`'s stream: what
/// an observer of any of them relies on — every event in one order, streams that end, a consumer
/// that leaves is forgotten, a bounded one keeps the oldest events — is checked here once.
@Suite(.timeLimit(.minutes(1)))
struct BroadcasterTests {
    @Test func everySubscriberGetsEveryEventInOneOrderWhileManyEmitAtOnce() async {
        let broadcaster = Broadcaster<Int>()
        let streams = (0..<3).map { _ in broadcaster.subscribe() }
        let consumers = streams.map { stream in
            Task { await Array(stream) }
        }
        let (emitters, perEmitter) = (8, 2_000)
        await withTaskGroup(of: Void.self) { group in
            for emitter in 0..<emitters {
                group.addTask {
                    for index in 0..<perEmitter { broadcaster.emit(emitter * perEmitter + index) }
                }
            }
        }
        broadcaster.finish()
        var received: [[Int]] = []
        for consumer in consumers { received.append(await consumer.value) }

        #expect(received[0].count == emitters * perEmitter)
        #expect(received[1] == received[0], "every subscriber sees the same order")
        #expect(received[2] == received[0], "every subscriber sees the same order")
        for emitter in 0..<emitters {
            let own = received[0].filter { $0 / perEmitter == emitter }
            #expect(own == Array(emitter * perEmitter..<(emitter + 1) * perEmitter), "emitter \(emitter)'s events in its order")
        }
    }

    @Test func aFinishedStreamStillDeliversWhatWasEmittedBeforeThenEnds() async {
        let broadcaster = Broadcaster<String>()
        let stream = broadcaster.subscribe()
        broadcaster.emit(contentsOf: ["a", "b"])
        broadcaster.emit("c")
        broadcaster.finish()
        broadcaster.emit("after the end")

        #expect(await Array(stream) == ["a", "b", "c"])
        #expect(await Array(broadcaster.subscribe()).isEmpty, "a subscription after the end ends at once")
    }

    @Test func aConsumerThatStopsIteratingIsForgotten() async {
        let broadcaster = Broadcaster<Int>()
        // Only the task holds the stream: it goes when the loop is left and the task ends.
        let first = Task { [stream = broadcaster.subscribe()] () -> Int? in
            for await event in stream { return event }
            return nil
        }
        broadcaster.emit(1)
        broadcaster.emit(2)
        #expect(await first.value == 1)
        #expect(!broadcaster.isObserved, "its subscription went with its stream")
    }

    @Test func cancellingTheConsumersTaskEndsItsStreamAndUnsubscribesIt() async {
        let broadcaster = Broadcaster<Int>()
        let stream = broadcaster.subscribe()
        let consumer = Task { await Array(stream) }
        broadcaster.emit(1)
        consumer.cancel()
        broadcaster.emit(2)
        let received = await consumer.value
        #expect(!received.contains(2), "nothing emitted after the cancel")
        #expect(!broadcaster.isObserved)
        withExtendedLifetime(stream) {}
    }

    @Test func aBoundedSubscriberKeepsTheOldestEventsAndCountsTheOthers() async {
        let broadcaster = Broadcaster<Int>()
        let dropped = Atomic(0)
        let stream = broadcaster.subscribe(limit: 3) { dropped.add(1, ordering: .relaxed) }
        for event in 0..<10 { broadcaster.emit(event) }
        broadcaster.finish()

        #expect(await Array(stream) == [0, 1, 2])
        #expect(dropped.load(ordering: .relaxed) == 7)
    }

    @Test func theBroadcasterGoingAwayEndsItsStreams() async {
        var broadcaster: Broadcaster<Int>? = Broadcaster()
        let stream = broadcaster!.subscribe()  // Sound: set on the line before.
        broadcaster?.emit(1)
        broadcaster = nil
        #expect(await Array(stream) == [1])
    }

    @Test func eachEventIsTransformedForItsSubscriber() async {
        let broadcaster = Broadcaster<Int>()
        let stream = broadcaster.subscribe { "#\($0)" }
        broadcaster.emit(contentsOf: [1, 2])
        broadcaster.finish()
        #expect(await Array(stream) == ["#1", "#2"])
    }
}

extension Array {
    /// Every element of `stream`, until it ends.
    fileprivate init(_ stream: AsyncStream<Element>) async {
        self = []
        for await element in stream { append(element) }
    }
}
