import Synchronization
import TaskFlow

func benchmarkBackgroundSteps(_ table: inout ResultTable) async throws {
    progress("background steps")
    let steps = CoreWorkload.steps
    let baseline = await medianOf(5) {
        var accumulator = 0
        let elapsed = await measure {
            for _ in 0..<steps { accumulator = await opaqueAsyncCall(accumulator) }
        }
        precondition(accumulator == steps)
        return nanoseconds(elapsed) / Double(steps)
    }
    _ = try await timeSteps(steps / 10, .taskWithRevert, observed: false) // warm-up
    _ = try await timeSteps(steps / 10, .taskWithRevert, observed: true)
    // Interleaved, so a drift in machine load affects the observed and unobserved runs alike.
    // Each observed run gives both the flow's own time and the delivery time.
    var unobserved: [Double] = []
    var observed: [StepTiming] = []
    for _ in 0..<5 {
        unobserved.append(try await timeSteps(steps, .taskWithRevert, observed: false).flow)
        observed.append(try await timeSteps(steps, .taskWithRevert, observed: true))
    }
    let step = Samples(unobserved).median
    let observedStep = StepTiming(median: observed)
    CoreFigures.record { $0.step = step; $0.observedStep = observedStep }

    for (label, value) in [
        ("no-op flow.task step, no observer", step),
        ("no-op flow.task step, 1 observer (flow's own time)", observedStep.flow),
    ] {
        table.add(
            label, taskFlow: formatNanoseconds(value), baseline: formatNanoseconds(baseline) + " (await call)",
            ratio: formatRatio(value / baseline), target: "≤ 1 µs/step", verdict: verdict(value <= 1_000))
    }

    _ = await rawStreamPerStep(steps / 10) // warm-up
    let stream = await medianOf(5) { await rawStreamPerStep(steps) }
    if let delivered = observedStep.delivered {
        table.add(
            "events delivered to 1 observer, per step", taskFlow: formatNanoseconds(delivered),
            baseline: formatNanoseconds(stream) + " (raw AsyncStream)", ratio: formatRatio(delivered / stream),
            target: "info", verdict: .info)
    }
}

/// The delivery of the observed steps to an observer that iterates on the main actor (a
/// program's UI): each `next()` of an event stream runs off the main actor (see `Broadcaster`),
/// where a raw `AsyncStream` hands a waiting element over without leaving it. Run last in the
/// core section: after it, the 1,000-flow figures that followed it moved (flows 0.8–0.9 →
/// 1.0–1.2 µs, their raw tasks 0.6 → 0.4–0.5 µs), whatever state the main queue's wake-ups
/// leave the thread pool in.
func benchmarkMainActorObserver(_ table: inout ResultTable) async throws {
    progress("main-actor observer")
    let steps = CoreWorkload.steps / 5
    var delivered: [Double] = []
    var raw: [Double] = []
    for _ in 0..<3 {
        raw.append(await rawStreamPerStep(steps, consumedOnMainActor: true))
        if let time = try await timeSteps(steps, .taskWithRevert, observed: true, onMainActor: true).delivered {
            delivered.append(time)
        }
    }
    guard !delivered.isEmpty else { return }
    let (flow, stream) = (Samples(delivered).median, Samples(raw).median)
    table.add(
        "events delivered to 1 main-actor observer, per step", taskFlow: formatNanoseconds(flow),
        baseline: formatNanoseconds(stream) + " (raw AsyncStream)", ratio: formatRatio(flow / stream),
        target: "info", verdict: .info)
}

/// The kinds of no-op step the benchmarks time.
enum NoOpStep {
    /// `flow.task` with a revert: what the main table measures.
    case taskWithRevert
    /// `flow.task` with `revert: nil`.
    case taskWithoutRevert
    /// `flow.update` on a `Void` state: no `TaskContext` is built.
    case update

    func run(in flow: FlowContext<Void>) async throws {
        switch self {
        case .taskWithRevert: try await flow.task(title: "no-op", apply: { _ in }, revert: { _, _ in })
        case .taskWithoutRevert: try await flow.task(title: "no-op", apply: { _ in })
        case .update: try await flow.update(title: "no-op") { _ in }
        }
    }
}

/// Per-step times of one write flow that runs no-op steps.
struct StepTiming: Sendable {
    /// Nanoseconds per step of the flow's own time, from its body's start to its end.
    let flow: Double
    /// With an observer of `manager.events`: nanoseconds per step from the body's start until
    /// the observer has received the flow's `completed` status event. Nil without an observer.
    let delivered: Double?

    init(flow: Double, delivered: Double?) {
        self.flow = flow
        self.delivered = delivered
    }

    /// The median of each time over several runs, taken separately.
    init(median runs: [StepTiming]) {
        let delivered = runs.compactMap(\.delivered)
        self.init(
            flow: Samples(runs.map(\.flow)).median,
            delivered: delivered.count == runs.count ? Samples(delivered).median : nil)
    }
}

/// Runs `count` no-op steps of kind `step` in one write flow on a fresh manager, with one
/// observer draining `manager.events` if `observed` (on the main actor if `onMainActor`), and
/// times them per step.
func timeSteps(_ count: Int, _ step: NoOpStep, observed: Bool, onMainActor: Bool = false) async throws -> StepTiming {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    var observer: Task<ContinuousClock.Instant?, Never>?
    if observed {
        let events = manager.events // subscribes now, before the flow emits anything
        observer = onMainActor ? Task { @MainActor in await completion(in: events) } : Task { await completion(in: events) }
    }
    let body = try await manager.execute(title: "no-op steps", access: .write) { flow in
        let start = ContinuousClock.now
        for _ in 0..<count { try await step.run(in: flow) }
        return Interval(start: start, end: .now)
    }.value
    let flow = nanoseconds(body.end - body.start) / Double(count)
    guard let observer else { return StepTiming(flow: flow, delivered: nil) }
    guard let delivered = await observer.value else {
        throw BenchmarkFailure(description: "the observer's stream ended before the flow's completed event")
    }
    return StepTiming(flow: flow, delivered: nanoseconds(delivered - body.start) / Double(count))
}

/// When the observer of `events` got the flow's `completed` status; nil if the stream ended first.
/// Isolated to its caller's actor, so that it iterates there.
private func completion(
    in events: AsyncStream<FlowEvent>, isolation: isolated (any Actor)? = #isolation
) async -> ContinuousClock.Instant? {
    for await event in events {
        if case .statusChanged(_, .completed) = event { return ContinuousClock.now }
    }
    return nil
}

/// A raw `AsyncStream` with one consumer (on the main actor if `consumedOnMainActor`), two
/// events per "step" around an awaited call, then a last one the consumer waits for: the
/// nanoseconds per step until the consumer has it, which is what delivering the same events costs
/// without the hub.
private func rawStreamPerStep(_ count: Int, consumedOnMainActor: Bool = false) async -> Double {
    let (stream, continuation) = AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
    let consumer =
        consumedOnMainActor ? Task { @MainActor in await lastElement(of: stream) } : Task { await lastElement(of: stream) }
    let start = ContinuousClock.now
    for index in 0..<count {
        continuation.yield(index)
        _ = await opaqueAsyncCall(index)
        continuation.yield(index)
    }
    continuation.yield(-1)
    let end = await consumer.value
    continuation.finish()
    return nanoseconds(end - start) / Double(count)
}

/// When the consumer got the stream's negative element, the last one (or its end).
private func lastElement(
    of stream: AsyncStream<Int>, isolation: isolated (any Actor)? = #isolation
) async -> ContinuousClock.Instant {
    for await value in stream where value < 0 { return .now }
    return .now
}
