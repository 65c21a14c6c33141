import Synchronization
import Testing
@testable import TaskFlowPostgres
import TaskFlowTestSupport

/// The PostgreSQL backend's deadline (``DeadlineWatch``): a request unanswered within the limit
/// fails its caller at exactly the limit and is cancelled, an answered one returns its value,
/// and one watcher serves requests started at different times in their deadlines' order.
@Suite("PostgreSQL: request deadlines")
struct DeadlineWatchTests {
    private static let limit = Duration.seconds(10)

    // A fresh suite for each test: its own clock, watch and hanging requests.
    private let clock = TestClock()
    private let watch: DeadlineWatch
    private let hanging = Hanging()
    /// The time on `clock` when the test began (it moves only when a test advances it).
    private let start: ContinuousClock.Instant

    init() {
        watch = DeadlineWatch(limit: Self.limit, server: "test-server", clock: clock)
        start = clock.now
    }

    /// A request that never answers, but ends when cancelled (and counts that it was).
    private final class Hanging: Sendable {
        let started = Atomic(0)
        let cancelled = Atomic(0)

        func request() async throws -> Int {
            started.add(1, ordering: .sequentiallyConsistent)
            let gate = Gate()
            await withTaskCancellationHandler {
                await gate.wait()
            } onCancel: {
                cancelled.add(1, ordering: .sequentiallyConsistent)
                gate.open()
            }
            throw CancellationError()
        }
    }

    private static func isGivenUp(_ error: any Error) -> Bool {
        guard case PostgresStoreError.server(let server, let message) = error else { return false }
        return server == "test-server" && message == "no answer within \(limit)"
    }

    @Test("a request unanswered at its deadline fails its caller then, and is cancelled", .timeLimit(.minutes(5)))
    func unansweredRequestIsGivenUp() async throws {
        let caller = Task { try await watch.run { try await hanging.request() } }

        #expect(await clock.waitForSleep(until: start + Self.limit), "the watcher sleeps until the deadline")
        #expect(await eventually(within: 120) { hanging.started.load(ordering: .sequentiallyConsistent) == 1 })
        clock.advance(to: start + Self.limit)
        let error = await #expect(throws: PostgresStoreError.self) { try await caller.value }
        #expect(error.map(Self.isGivenUp) == true, "got \(String(describing: error))")
        #expect(await eventually(within: 120) { hanging.cancelled.load(ordering: .sequentiallyConsistent) == 1 })
        #expect(watch.pendingCount == 0)
    }

    @Test("requests started at different times fail at their own deadlines; an answered one returns its value",
          .timeLimit(.minutes(5)))
    func deadlinesComeInOrder() async throws {

        let first = Task { try await watch.run { try await hanging.request() } }
        #expect(await eventually(within: 120) { hanging.started.load(ordering: .sequentiallyConsistent) == 1 })
        clock.advance(by: .seconds(1))
        let second = Task { try await watch.run { try await hanging.request() } }
        #expect(await eventually(within: 120) { hanging.started.load(ordering: .sequentiallyConsistent) == 2 })
        clock.advance(by: .seconds(1))
        #expect(try await watch.run { 42 } == 42, "an answer before the deadline is the caller's")

        #expect(await clock.waitForSleep(until: start + Self.limit))
        clock.advance(to: start + Self.limit)
        await #expect(throws: PostgresStoreError.self) { try await first.value }
        // Both overdue requests would have been taken in the same step as the first.
        #expect(watch.pendingCount == 1, "the second request's deadline is a second later")

        #expect(await clock.waitForSleep(until: start + .seconds(1) + Self.limit), "the watcher now sleeps until the second's")
        clock.advance(to: start + .seconds(1) + Self.limit)
        await #expect(throws: PostgresStoreError.self) { try await second.value }
        #expect(watch.pendingCount == 0)
        #expect(await eventually(within: 120) { clock.pendingSleeps.isEmpty }, "with nothing pending the watcher ends")

        // A request after the watcher ended starts a new one, which gives up on it in its turn.
        clock.advance(by: .seconds(1))
        let restart = clock.now
        let third = Task { try await watch.run { try await hanging.request() } }
        #expect(await clock.waitForSleep(until: restart + Self.limit), "a new watcher sleeps until the new deadline")
        clock.advance(to: restart + Self.limit)
        await #expect(throws: PostgresStoreError.self) { try await third.value }
        #expect(await eventually(within: 120) { hanging.cancelled.load(ordering: .sequentiallyConsistent) == 3 })
    }

    @Test("many concurrent requests: every answered one gets its value, every unanswered one fails and is cancelled",
          .timeLimit(.minutes(5)))
    func concurrentRequests() async throws {
        let count = 200

        let callers = (0..<count).map { index in
            Task { () -> Result<Int, any Error> in
                await Result { try await watch.run { index.isMultiple(of: 2) ? index : try await hanging.request() } }
            }
        }
        // Time moves only once every answered request has its answer (one still waiting for its
        // task at the deadline would rightly be given up) and every unanswered one is
        // registered (its task runs after that).
        for index in stride(from: 0, to: count, by: 2) {
            #expect(try await callers[index].value.get() == index, "request \(index) is answered")
        }
        #expect(await eventually(within: 120) { hanging.started.load(ordering: .sequentiallyConsistent) == count / 2 })
        #expect(await clock.waitForSleep(until: start + Self.limit))
        clock.advance(to: start + Self.limit)

        for index in stride(from: 1, to: count, by: 2) {
            let result = await callers[index].value
            #expect(result.failure.map(Self.isGivenUp) == true, "request \(index): \(result)")
        }
        #expect(await eventually(within: 120) { hanging.cancelled.load(ordering: .sequentiallyConsistent) == count / 2 })
        #expect(watch.pendingCount == 0)
    }
}

extension Result where Failure == any Error {
    fileprivate init(_ body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }

    fileprivate var failure: (any Error)? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
