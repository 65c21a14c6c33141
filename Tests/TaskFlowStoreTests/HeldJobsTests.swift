import Foundation
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// A job committed by one worker is claimable by another before the first announced its outcome
/// and let go of it: the second claim waits for that, so the job's events stay in order and its
/// lease is renewed all along.
@Suite("Held jobs")
struct HeldJobsTests {
    private static func job(_ id: Int64) -> ClaimedJob {
        ClaimedJob(id: StoredJobID(id), kind: "greeting", payload: Data(), retries: 0, isRecovery: false, claimToken: 1)
    }

    @Test("a claim of a job another worker still holds waits for its release, then holds it")
    func claimWaitsForTheHolder() async throws {
        let held = HeldJobs()
        let order = Recorder<String>()
        await held.hold([Self.job(1)])  // Worker A ran job 1 and committed its retry.
        let second = Task {
            await held.hold([Self.job(2), Self.job(1)])  // Worker B claimed the retry at once.
            order.record("B: started")
        }
        #expect(await eventually { held.waitingClaims == 1 })
        #expect(held.all == [StoredJobID(1)], "job 2 is not held while B waits: B holds all of its batch or none")
        order.record("A: retryScheduled")
        held.release([Self.job(1)])
        await second.value
        #expect(order.all == ["A: retryScheduled", "B: started"])
        #expect(held.all == [StoredJobID(1), StoredJobID(2)], "A's release did not drop B's hold: B's lease is still renewed")
        #expect(held.waitingClaims == 0)
    }
}
