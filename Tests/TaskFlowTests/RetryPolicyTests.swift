import Testing
import TaskFlow
import TaskFlowTestSupport

/// The one retry rule: how many runs, which errors, and the delay before each retry.
@Suite struct RetryPolicyTests {
    struct Transient: Error {}
    struct Permanent: Error {}

    @Test func exponentialDelaysDoubleFromTheInitialDelayAndStopAtTheCap() {
        let policy = RetryPolicy.exponential(
            maxAttempts: 10, initial: .milliseconds(100), multiplier: 2, cap: .seconds(1), jitter: 0)
        let delays = (1...6).map { policy.delay(forRetry: $0) }
        #expect(delays == [.milliseconds(100), .milliseconds(200), .milliseconds(400),
                           .milliseconds(800), .seconds(1), .seconds(1)])
    }

    @Test func aHugeRetryNumberIsClampedToTheCapInsteadOfOverflowing() {
        let policy = RetryPolicy.exponential(maxAttempts: .max, initial: .seconds(1), multiplier: 10, cap: .seconds(30))
        #expect(policy.delay(forRetry: 5_000) == .seconds(30))
    }

    @Test func constantAndImmediatePoliciesWaitTheSameEachTime() {
        let constant = RetryPolicy.constant(maxAttempts: 3, delay: .milliseconds(250))
        #expect((1...2).map { constant.delay(forRetry: $0) } == [.milliseconds(250), .milliseconds(250)])
        #expect(RetryPolicy.immediate(maxAttempts: 3).delay(forRetry: 2) == .zero)
    }

    @Test func maxAttemptsCountsTheFirstRun() {
        let policy = RetryPolicy.immediate(maxAttempts: 3)
        #expect(policy.shouldRetry(Transient(), afterAttempt: 1))
        #expect(policy.shouldRetry(Transient(), afterAttempt: 2))
        #expect(!policy.shouldRetry(Transient(), afterAttempt: 3))
        #expect(!RetryPolicy.never.shouldRetry(Transient(), afterAttempt: 1))
    }

    @Test func cancellationNeverRetriesWhateverThePolicy() {
        let policy = RetryPolicy.immediate(maxAttempts: 100).retrying(if: { _ in true })
        #expect(!policy.shouldRetry(CancellationError(), afterAttempt: 1))
    }

    @Test func retryingIfNarrowsWhichErrorsRetryAndConditionsCombine() {
        let transientOnly = RetryPolicy.immediate(maxAttempts: 5).retrying(if: { $0 is Transient })
        #expect(transientOnly.shouldRetry(Transient(), afterAttempt: 1))
        #expect(!transientOnly.shouldRetry(Permanent(), afterAttempt: 1))
        let neither = transientOnly.retrying(if: { $0 is Permanent })
        #expect(!neither.shouldRetry(Transient(), afterAttempt: 1))
        #expect(!neither.shouldRetry(Permanent(), afterAttempt: 1))
        #expect(!transientOnly.withMaxAttempts(1).shouldRetry(Transient(), afterAttempt: 1))
    }

    @Test func jitterOnlyShortensADelayByAtMostItsFraction() {
        let policy = RetryPolicy.constant(maxAttempts: 2, delay: .seconds(1), jitter: 0.25)
        var generator = SeededGenerator(seed: 42)
        let delays = (0..<1_000).map { _ in policy.jitteredDelay(forRetry: 1, using: &generator) }
        #expect(delays.allSatisfy { $0 >= .milliseconds(750) && $0 <= .seconds(1) })
        // Jitter spreads the delays: a policy that ignored it would give one value only.
        #expect(Set(delays).count > 100)
        #expect(RetryPolicy.constant(maxAttempts: 2, delay: .seconds(1)).jitteredDelay(forRetry: 1) == .seconds(1))
    }
}
