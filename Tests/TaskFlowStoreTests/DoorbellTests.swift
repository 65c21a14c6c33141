@testable import TaskFlowStore
import TaskFlowSupport
import TaskFlowTestSupport
import Testing

/// The bell idle workers wait on: a wait ends at a ring or at its deadline, whichever comes first,
/// and neither is ever lost.
@Suite("Doorbell")
struct DoorbellTests {
    @Test("a wait ends at its deadline even when the deadline comes before the wait is listed")
    func deadlineBeforeTheWait() async {
        let clock = TestClock()
        let bell = Doorbell(clock: clock)
        // The deadline has passed, so the timer fires as soon as its task runs — on the other
        // core, while this one lists the wait. Before the fix the timer was started before the
        // wait was listed, found nothing to wake when it won that race, and the wait (a worker)
        // slept until the next ring: for ever, in a store nobody submitted to.
        let done = Gate()
        let rounds = Recorder<Bool>()
        let waits = Task {
            defer { done.open() }
            for _ in 0..<Self.rounds where !Task.isCancelled {
                await bell.wait(after: bell.ticket(), until: clock.now)
                rounds.record(true)
            }
        }
        // A lost wait stops the rounds for good; a loaded machine only slows them. So the test
        // fails when no round ends for a minute, however long all of them take.
        while !done.isOpen {
            let before = rounds.count
            guard await eventually(within: 60, { done.isOpen || rounds.count > before }) else {
                Issue.record("a wait outlived its deadline (after \(before) rounds)")
                break
            }
        }
        // After a failure: stop the waits, ringing until the lost one (and any later) is freed.
        waits.cancel()
        while !done.isOpen {
            bell.ring()
            await Task.yield()
        }
    }

    @Test("a ring ends a wait at once and withdraws its timer")
    func ringEndsTheWait() async {
        let clock = TestClock()
        let bell = Doorbell(clock: clock)
        let deadline = clock.now + .seconds(60)
        let ticket = bell.ticket()
        let wait = Task { await bell.wait(after: ticket, until: deadline) }
        #expect(await clock.waitForSleep(until: deadline), "the wait's timer sleeps until its deadline")
        bell.ring()
        await wait.value
        #expect(clock.pendingSleeps.isEmpty, "no timer is left behind to wake a later wait")
        // A wait whose ticket predates a ring does not sleep at all.
        await bell.wait(after: ticket, until: deadline)
    }

    private static let rounds = 100_000
}
