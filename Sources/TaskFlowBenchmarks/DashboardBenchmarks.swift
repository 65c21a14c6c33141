import DashboardKit
import Foundation
import TaskFlow
import TaskFlowSupport

/// The dashboard's figures: how long a frame takes to render, how many engine events the model
/// takes in per second while frames are drawn at 30 fps, the loop's main-thread time while idle,
/// and the delay from a flow event to the frame that shows it.
///
/// Call it on the main thread, before the first `await` of the benchmarks' top-level code: the
/// loop figures run the dashboard's real loop, which sleeps in the main run loop. Off the main
/// thread they are skipped with a note.
@MainActor
func runDashboardBenchmarks() {
    var table = ResultTable(title: "Dashboard (120×40 frames)")
    for flows in [10, 100, 1_000, 100_000] {
        let perFrame = renderTime(flows: flows)
        table.add(
            "render a frame, \(flows) flows", taskFlow: formatNanoseconds(perFrame), baseline: "—", ratio: "—",
            target: "< 33 ms (one frame)", verdict: perFrame < 33e6 ? .met : .missed)
    }
    // A sort is applied at every frame (the list changes under it): by title, the costliest key.
    for flows in [1_000, 100_000] {
        let perFrame = renderTime(flows: flows, sortedBy: "title", filter: "-state:failed")
        table.add(
            "render a frame, \(flows) flows sorted by title, filtered", taskFlow: formatNanoseconds(perFrame), baseline: "—",
            ratio: "—", target: "< 33 ms (one frame)", verdict: perFrame < 33e6 ? .met : .missed)
    }
    let ingest = ingestRate()
    table.add(
        "events ingested while drawing 30 fps", taskFlow: formatRate(ingest, unit: "events"), baseline: "—", ratio: "—",
        target: "—", verdict: .info)
    guard Thread.isMainThread else {
        BenchmarkReport.publish(table)
        print("loop figures skipped: runDashboardBenchmarks() was not called on the main thread")
        return
    }
    let idle = idleMainThreadShare()
    table.add(
        "main-thread time while idle", taskFlow: format(idle * 100, digits: 3) + " %", baseline: "—", ratio: "—",
        target: "< 1 %", verdict: idle < 0.01 ? .met : .missed)
    let delays = eventToFrameDelays()
    for (label, value) in [("median", delays.median), ("p95", delays.percentile(95)), ("max", delays.max)] {
        table.add(
            "flow event → its frame, \(label)", taskFlow: formatNanoseconds(value), baseline: "—", ratio: "—",
            target: "≤ 33 ms (one frame)", verdict: value <= 33.4e6 ? .met : .missed)
    }
    BenchmarkReport.publish(table)
}

// MARK: - Render time

/// Median time to render one frame of a model holding `flows` flows with their steps and a
/// full log, its list sorted by the column `sortedBy` and filtered by `filter` if given.
@MainActor
private func renderTime(flows: Int, sortedBy column: String? = nil, filter: String = "") -> Double {
    var model = DashboardModel(scenario: "benchmark", historyLimit: flows)
    for (index, event) in SyntheticEvents.flows(flows).enumerated() {
        _ = model.apply(event, at: .milliseconds(index))
    }
    if let column { model.update(FlowsTab.self) { $0.restoreSort(SavedSort(column: column, ascending: true)) } }
    if !filter.isEmpty {
        _ = model.handle(.character("/"))
        for character in filter { _ = model.handle(.character(character)) }
        _ = model.handle(.enter)
    }
    _ = model.handle(.end)  // the selection on the last flow: the list scrolls
    let view = DashboardView(glyphs: .unicode)
    let size = GridSize(width: 120, height: 40)
    var durations: [Duration] = []
    let budget = ContinuousClock.now + .milliseconds(500)
    while durations.count < 20 || (ContinuousClock.now < budget && durations.count < 500) {
        let start = ContinuousClock.now
        let grid = view.render(model, size: size)
        durations.append(ContinuousClock.now - start)
        precondition(grid.size == size)
    }
    return Samples(durations).median
}

// MARK: - Ingest rate

/// Events per second the model applies for one second while a frame is rendered every 33 ms
/// (the render time counts against the events). The events of 4,000 flows are replayed into a
/// fresh model each time they run out, so the model stays the size of a busy manager's.
@MainActor
private func ingestRate() -> Double {
    let events = SyntheticEvents.flows(4_000)
    var model = DashboardModel(scenario: "benchmark")
    let view = DashboardView(glyphs: .unicode)
    let clock = ContinuousClock()
    let start = clock.now
    var nextFrame = start
    var applied = 0, position = 0
    while clock.now - start < .seconds(1) {
        if position == events.count { (model, position) = (DashboardModel(scenario: "benchmark"), 0) }
        let batch = events[position..<min(position + 100, events.count)]
        for event in batch { _ = model.apply(event, at: clock.now - start) }
        position += batch.count
        applied += batch.count
        if clock.now >= nextFrame {
            _ = view.render(model, size: GridSize(width: 120, height: 40))
            nextFrame += .milliseconds(33)
        }
    }
    return Double(applied) / (clock.now - start).seconds
}

// MARK: - The real loop

/// The share of one core the loop's thread uses over 3 s with nothing happening.
@MainActor
private func idleMainThreadShare() -> Double {
    let session = DashboardSession(scenarioName: "idle", theme: .fallback, themes: ThemeCatalog(directories: []))
    session.start(ProbeScenario(progressReports: 0))
    let loop = MainLoop(session: session, backend: MemoryBackend(size: GridSize(width: 120, height: 40)))
    _ = loop.run(until: ContinuousClock.now + .milliseconds(300))  // the first frames
    let cpuStart = threadCPUTime(), wallStart = ContinuousClock.now
    _ = loop.run(until: wallStart + .seconds(3))
    return (threadCPUTime() - cpuStart).seconds / (ContinuousClock.now - wallStart).seconds
}

/// For each progress event of a running flow, the time until the first frame drawn after it.
@MainActor
private func eventToFrameDelays() -> Samples {
    let scenario = ProbeScenario(progressReports: 40)
    let session = DashboardSession(scenarioName: "probe", theme: .fallback, themes: ThemeCatalog(directories: []))
    let backend = MemoryBackend(size: GridSize(width: 120, height: 40))
    var frames: [ContinuousClock.Instant] = []
    backend.onDraw = { _ in frames.append(.now) }
    session.start(scenario)
    let loop = MainLoop(session: session, backend: backend)
    let deadline = ContinuousClock.now + .seconds(10)
    while scenario.reported.count < 40, ContinuousClock.now < deadline {
        _ = loop.run(until: ContinuousClock.now + .milliseconds(100))
    }
    _ = loop.run(until: ContinuousClock.now + .milliseconds(100))
    let delays = scenario.reported.instants.compactMap { event in frames.first { $0 >= event }.map { $0 - event } }
    return Samples(delays)
}

/// CPU time of the calling thread.
private func threadCPUTime() -> Duration {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return .seconds(time.tv_sec) + .nanoseconds(time.tv_nsec)
}

// MARK: - Inputs

/// One flow that reports progress every 50 ms, noting when each report is made; with no
/// reports it submits nothing (the idle case).
private struct ProbeScenario: FlowSource {
    let progressReports: Int
    let manager = TaskFlowManager()
    let reported = Stamps()

    var name: String { "probe" }

    func events() -> AsyncStream<TimedFlowEvent> { manager.timedEvents }

    func snapshot() -> ManagerSnapshot { manager.snapshot() }

    @MainActor
    func start() -> AsyncStream<FlowHandle> {
        guard progressReports > 0 else { return .submitted([]) }
        let flow = manager.execute(title: "probe", access: .read) { [progressReports, reported] flow in
            try await flow.task(title: "report") { task in
                for report in 1...progressReports {
                    try await Task.sleep(for: .milliseconds(50))
                    reported.append(.now)
                    task.progress(Double(report) / Double(progressReports))
                }
            }
        }
        return .submitted([FlowHandle(flow)])
    }
}

/// Instants recorded from a background step and read on the main actor.
private final class Stamps: Sendable {
    private let storage = Protected<[ContinuousClock.Instant]>([])

    func append(_ instant: ContinuousClock.Instant) { storage.withLock { $0.append(instant) } }
    var instants: [ContinuousClock.Instant] { storage.withLock { $0 } }
    var count: Int { storage.withLock { $0.count } }
}

/// Engine events as a busy manager emits them, without running an engine: each flow queued,
/// running, ten steps (a group of three among them) with progress, then completed.
private enum SyntheticEvents {
    static func flows(_ count: Int) -> [FlowEvent] {
        (1...count).flatMap { number -> [FlowEvent] in
            let id = FlowID(number)
            var events: [FlowEvent] = [
                .flowQueued(FlowInfo(id: id, title: "flow \(number)", access: number % 3 == 0 ? .read : .write)),
                .statusChanged(id, .running),
            ]
            for step in 1...10 {
                let info = StepInfo(id: StepID(step), parent: step > 1 && step <= 4 ? StepID(1) : nil, title: "step \(step)", kind: step == 1 ? .group : .task)
                events += [.stepStarted(id, info), .progress(id, info.id, 0.5), .progress(id, info.id, 1)]
                if step != 1 { events.append(.stepFinished(id, info.id, .completed)) }
                if step == 4 { events.append(.stepFinished(id, StepID(1), .completed)) }
            }
            if number % 2 == 0 { events.append(.statusChanged(id, .completed)) }
            return events
        }
    }
}
