/// When a failed piece of work runs again, and after how long: the one retry rule shared by
/// jobs (``Job/retry(_:)-(RetryPolicy)``), flow steps and the durable job store.
///
/// A policy is a value: building one runs nothing. `maxAttempts` counts the first run, so
/// `maxAttempts: 1` never retries and `.immediate(maxAttempts: 4)` allows up to three retries.
/// `CancellationError` never retries, whatever the policy says: a cancel is an answer, not a
/// fault. Other errors retry unless ``retrying(if:)`` narrowed the policy.
///
/// ```swift
/// let policy = RetryPolicy.exponential(maxAttempts: 5, initial: .milliseconds(100),
///                                      multiplier: 2, cap: .seconds(1), jitter: 0)
///     .retrying(if: { $0 is TransientError })
/// policy.delay(forRetry: 3)   // 400 ms: 100, 200, 400, capped at 1 s
/// ```
public struct RetryPolicy: Sendable {
    /// How long to wait before a retry, before jitter.
    public enum Backoff: Sendable, Hashable {
        /// Retry at once.
        case immediate
        /// Wait the same delay before every retry.
        case constant(Duration)
        /// Wait `initial` before the first retry, then `multiplier` times longer each time,
        /// never more than `cap`.
        case exponential(initial: Duration, multiplier: Double, cap: Duration)
    }

    /// How many runs in all, the first included; at least 1.
    public let maxAttempts: Int
    /// How the delay grows from one retry to the next.
    public let backoff: Backoff
    /// The fraction (0...1) of each delay that is randomised away: a delay `d` becomes a value
    /// in `d * (1 - jitter) ... d`, so that many clients that failed together do not all retry
    /// at the same instant. Jitter only ever shortens a delay, so `cap` stays a true maximum.
    public let jitter: Double
    private let isRetryable: @Sendable (any Error) -> Bool

    private init(
        maxAttempts: Int, backoff: Backoff, jitter: Double,
        isRetryable: @escaping @Sendable (any Error) -> Bool = { _ in true }
    ) {
        precondition(maxAttempts >= 1, "RetryPolicy: maxAttempts counts the first run, so it is at least 1")
        precondition((0...1).contains(jitter), "RetryPolicy: jitter is a fraction in 0...1")
        self.maxAttempts = maxAttempts
        self.backoff = backoff
        self.jitter = jitter
        self.isRetryable = isRetryable
    }

    /// Runs once, never retries.
    public static let never = RetryPolicy(maxAttempts: 1, backoff: .immediate, jitter: 0)

    /// Retries at once, up to `maxAttempts` runs in all.
    public static func immediate(maxAttempts: Int) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, backoff: .immediate, jitter: 0)
    }

    /// Waits `delay` before each retry, up to `maxAttempts` runs in all.
    public static func constant(maxAttempts: Int, delay: Duration, jitter: Double = 0) -> RetryPolicy {
        precondition(delay >= .zero, "RetryPolicy: a delay cannot be negative")
        return RetryPolicy(maxAttempts: maxAttempts, backoff: .constant(delay), jitter: jitter)
    }

    /// Waits `initial` before the first retry and `multiplier` times longer before each next
    /// one, never more than `cap`; up to `maxAttempts` runs in all.
    public static func exponential(
        maxAttempts: Int, initial: Duration, multiplier: Double = 2, cap: Duration, jitter: Double = 0
    ) -> RetryPolicy {
        precondition(initial >= .zero && cap >= .zero, "RetryPolicy: a delay cannot be negative")
        precondition(multiplier >= 1 && multiplier.isFinite, "RetryPolicy: multiplier is a finite number ≥ 1")
        return RetryPolicy(
            maxAttempts: maxAttempts, backoff: .exponential(initial: initial, multiplier: multiplier, cap: cap),
            jitter: jitter)
    }

    /// The same policy, retrying only errors for which `condition` is true (and never
    /// `CancellationError`). Conditions added one after another must all hold.
    public func retrying(if condition: @escaping @Sendable (any Error) -> Bool) -> RetryPolicy {
        let previous = isRetryable
        return RetryPolicy(
            maxAttempts: maxAttempts, backoff: backoff, jitter: jitter,
            isRetryable: { previous($0) && condition($0) })
    }

    /// The same policy with a different number of runs in all.
    public func withMaxAttempts(_ maxAttempts: Int) -> RetryPolicy {
        RetryPolicy(maxAttempts: maxAttempts, backoff: backoff, jitter: jitter, isRetryable: isRetryable)
    }

    /// Whether `error`, thrown by run number `attempt` (from 1), is worth another run:
    /// runs are left, the error is not a `CancellationError`, and the policy's conditions hold.
    public func shouldRetry(_ error: any Error, afterAttempt attempt: Int) -> Bool {
        attempt < maxAttempts && !(error is CancellationError) && isRetryable(error)
    }

    /// The delay before retry number `retry` (1 is the second run), before jitter: a pure
    /// function of the policy, so it can be checked exactly.
    public func delay(forRetry retry: Int) -> Duration {
        precondition(retry >= 1, "RetryPolicy: retries are numbered from 1")
        switch backoff {
        case .immediate:
            return .zero
        case .constant(let delay):
            return delay
        case .exponential(let initial, let multiplier, let cap):
            // Grow in floating point and clamp before converting back: multiplier^(retry - 1)
            // overflows any integer representation long before a caller stops retrying.
            let grown = initial.inSeconds * power(multiplier, retry - 1)
            return grown >= cap.inSeconds ? cap : .seconds(grown)
        }
    }

    /// The delay before retry number `retry` with jitter applied, drawing from `generator`.
    public func jitteredDelay<G: RandomNumberGenerator>(forRetry retry: Int, using generator: inout G) -> Duration {
        let nominal = delay(forRetry: retry)
        guard jitter > 0, nominal > .zero else { return nominal }
        return nominal * (1 - jitter * Double.random(in: 0...1, using: &generator))
    }

    /// The delay before retry number `retry` with jitter applied, from the system's generator.
    public func jitteredDelay(forRetry retry: Int) -> Duration {
        var generator = SystemRandomNumberGenerator()
        return jitteredDelay(forRetry: retry, using: &generator)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    fileprivate var inSeconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) * 1e-18
    }
}

/// `base` to a whole, non-negative `exponent`, by squaring; stops early once the result is
/// infinite (the caller clamps it to the cap). Spares the core an import of Foundation.
private func power(_ base: Double, _ exponent: Int) -> Double {
    var result = 1.0
    var remaining = exponent
    var factor = base
    while remaining > 0 && result.isFinite {
        if remaining & 1 == 1 { result *= factor }
        factor *= factor
        remaining >>= 1
    }
    return result
}
