import Synchronization
import Testing
@testable import TaskFlowPostgres
import TaskFlowTestSupport

/// The wake-up a submit sends after its commit (``WakeUpSender``): every commit is followed by a
/// wake-up that starts after it, the commits made while one is on its way (or within its
/// spacing) share one more, and wake-ups are at least a spacing apart.
@Suite("PostgreSQL: wake-ups after submits")
struct WakeUpSenderTests {
    /// Each send says how many rings came before it started, and waits for the test to let it end.
    private struct Send {
        let ringsBefore: Int
        let end: Gate
    }

    @Test("rings while a wake-up is on its way share one more, sent after it; then none until the next ring",
          .timeLimit(.minutes(1)))
    func ringsAreCoalescedAndNoneIsLost() async throws {
        let rings = Atomic(0)
        let (sends, announce) = AsyncStream.makeStream(of: Send.self)
        let sender = WakeUpSender(spacing: .zero) {
            let end = Gate()
            announce.yield(Send(ringsBefore: rings.load(ordering: .sequentiallyConsistent), end: end))
            await end.wait()
        }
        func ring() {
            rings.add(1, ordering: .sequentiallyConsistent)
            sender.ring()
        }
        var started = sends.makeAsyncIterator()

        ring()
        let first = try #require(await started.next())
        #expect(first.ringsBefore == 1)
        for _ in 0..<5 { ring() }
        first.end.open()
        let second = try #require(await started.next())
        #expect(second.ringsBefore == 6, "one wake-up for the five rings made while the first was on its way")
        second.end.open()
        // Idle again (no send after the second), so the next ring starts a sender of its own.
        #expect(await eventually { sender.isIdle })
        ring()
        let third = try #require(await started.next())
        #expect(third.ringsBefore == 7, "no wake-up between the second and the next ring")
        third.end.open()
    }

    @Test("wake-ups are a spacing apart: the rings within it share one sent when it is over; a ring after a quiet spell goes at once",
          .timeLimit(.minutes(1)))
    func wakeUpsAreSpaced() async throws {
        let clock = TestClock()
        let spacing = Duration.milliseconds(5)
        let rings = Atomic(0)
        let (sends, announce) = AsyncStream.makeStream(of: Send.self)
        let sender = WakeUpSender(spacing: spacing, clock: clock) {
            announce.yield(Send(ringsBefore: rings.load(ordering: .sequentiallyConsistent), end: Gate()))
        }
        func ring() {
            rings.add(1, ordering: .sequentiallyConsistent)
            sender.ring()
        }
        var started = sends.makeAsyncIterator()
        let start = clock.now

        ring()
        #expect(try #require(await started.next()).ringsBefore == 1, "the first ring is sent at once")
        // The sender now waits out the spacing: nothing can be sent until the clock reaches it.
        #expect(await clock.waitForSleep(until: start + spacing))
        for _ in 0..<3 { ring() }
        clock.advance(to: start + spacing)
        #expect(try #require(await started.next()).ringsBefore == 4, "one wake-up for the three rings within the spacing, at its end")
        // No ring within the second spacing: once it is over the sender is idle.
        #expect(await clock.waitForSleep(until: start + spacing * 2))
        clock.advance(to: start + spacing * 2)
        #expect(await eventually { sender.isIdle })
        ring()
        #expect(try #require(await started.next()).ringsBefore == 5, "a ring after a quiet spell is sent at once, the clock unmoved")
    }
}
