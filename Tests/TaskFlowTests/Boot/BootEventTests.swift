import Testing
import TaskFlow
import TaskFlowTestSupport

/// Application events: buffered while the boot runs, forwarded in the order sent when it ends,
/// then forwarded directly; each observer gets each event exactly once.
@Suite struct BootEventTests {
    @Test func eventsWaitForTheBootThenArriveInOrder() async throws {
        let boot = Boot<Int>(title: "Start")
        let seen = Recorder<Int>()
        let seenDuringBoot = Recorder<Int>()
        boot.observer("Log") { event in seen.record(event) }
        for event in 1...100 { boot.send(event) }
        boot.task("Open store") {
            for event in 101...200 { boot.send(event) }
            // Give the observer every chance to (wrongly) receive something now.
            for _ in 0..<100 { await Task.yield() }
            seenDuringBoot.record(seen.all.count)
        }
        try await boot.run()
        #expect(boot.phase == .booted)
        for event in 201...300 { boot.send(event) }
        await boot.finish()
        #expect(seenDuringBoot.all == [0], "an event reached the observer during boot")
        #expect(seen.all == Array(1...300))
    }

    @Test func aFailedBootStillForwardsTheBufferedEvents() async {
        let boot = Boot<String>(title: "Start")
        let seen = Recorder<String>()
        boot.observer("Log") { event in seen.record(event) }
        boot.send("before")
        boot.task("Fails") { throw Boom() }
        await #expect(throws: Boom()) { try await boot.run() }
        boot.send("after")
        await boot.finish()
        #expect(seen.all == ["before", "after"])
    }

    @Test func everyObserverGetsEveryLaterEventInOrder() async throws {
        let boot = Boot<Int>(title: "Start")
        let first = Recorder<Int>()
        let second = Recorder<Int>()
        boot.observer("First") { first.record($0) }
        boot.observer("Second") { event in
            if event % 7 == 0 { await Task.yield() }  // a slower observer loses nothing either
            second.record(event)
        }
        try await boot.run()
        for event in 0..<5_000 { boot.send(event) }
        await boot.finish()
        #expect(first.all == Array(0..<5_000))
        #expect(second.all == Array(0..<5_000))
        boot.send(5_000)
        #expect(first.all.count == 5_000, "events after finish() are dropped")
    }

    /// Many senders race the end of the boot: every event arrives exactly once, each sender's
    /// events in the order it sent them, and both observers see the same single order.
    @Test(arguments: [1, 2, 3, 4, 5] as [UInt64])
    func racingSendersLoseAndDuplicateNothing(seed: UInt64) async throws {
        struct Sent: Sendable, Hashable {
            let sender: Int
            let number: Int
        }
        var rng = SeededGenerator(seed: seed)
        let senders = 8
        let perSender = 2_000
        let boot = Boot<Sent>(title: "Race")
        let first = Recorder<Sent>()
        let second = Recorder<Sent>()
        boot.observer("First") { first.record($0) }
        boot.observer("Second") { second.record($0) }
        for index in 0..<20 {
            let yields = Int(rng.next() % 50)
            boot.task("t\(index)", after: index == 0 ? [] : ["t\(Int(rng.next() % UInt64(index)))"]) {
                for _ in 0..<yields { await Task.yield() }
            }
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for sender in 0..<senders {
                group.addTask {
                    for number in 0..<perSender {
                        boot.send(Sent(sender: sender, number: number))
                        if number % 64 == 0 { await Task.yield() }
                    }
                }
            }
            group.addTask { try await boot.run() }
            try await group.waitForAll()
        }
        await boot.finish()
        let received = first.all
        #expect(received.count == senders * perSender)
        #expect(Set(received).count == senders * perSender, "an event was duplicated")
        for sender in 0..<senders {
            let numbers = received.filter { $0.sender == sender }.map(\.number)
            #expect(numbers.elementsEqual(0..<perSender), "sender \(sender)'s events arrived incomplete or out of order")
        }
        #expect(second.all.elementsEqual(received), "observers saw different orders")
    }
}
