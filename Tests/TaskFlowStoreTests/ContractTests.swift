import TaskFlowTestSupport
import TaskFlow
import TaskFlowStore
import Testing

/// The store part of DESIGN.md's API contract, written as the contract writes it: if this file
/// compiles and passes, code written against the contract does too.
@Suite("API contract")
struct ContractTests {
    struct SendEmail: StoredJob { static let kind = "send-email"; let to: String }
    struct TransientError: Error {}

    @Test("the contract's calls, run once in memory")
    func contract() async throws {
        let network = Flag(false)
        let sent = Recorder<String>()
        @Sendable func send(_ email: SendEmail) async throws {
            sent.record(email.to)
        }
        let policy = RetryPolicy.exponential(maxAttempts: 5, initial: .milliseconds(100), multiplier: 2,
                                             cap: .seconds(1), jitter: 0)
            .retrying(if: { $0 is TransientError })
        let store = try JobStore.inMemory()
        let log = ChangeLog(store)
        store.register(SendEmail.self, retry: policy) { email, attempt in
            guard network.isSet else { return .retryWhenReady }
            do { try await send(email); return .success }
            catch { return .retry(error) }
        }
        let id = try await store.submit(SendEmail(to: "ana@example.com"))
        let emails = [SendEmail(to: "bo@example.com"), SendEmail(to: "cy@example.com")]
        let ids = try await store.submit(contentsOf: emails)
        try await store.start(workers: 4)
        #expect(await log.waitUntil { events in events.filter { $0.name == "parked" }.count == 3 })
        let pending = try await store.jobs()
        #expect(pending.map(\.id) == [id] + ids)
        #expect(pending.allSatisfy { $0.kind == SendEmail.kind && $0.state == .parked && $0.retries == 0 })
        network.set()
        store.conditionsChanged()
        #expect(await log.waitForEnds(3))
        #expect(Set(sent.all) == ["ana@example.com", "bo@example.com", "cy@example.com"])
        await store.stop()
    }
}
