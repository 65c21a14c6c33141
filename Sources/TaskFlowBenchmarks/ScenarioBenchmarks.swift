import DashboardKit
import TaskFlow
import TaskFlowScenario

/// Scenario and theme files, and scenario runs: the costs that used to grow faster than the
/// input measured at two sizes ten times apart, so the ratio of the per-item costs
/// shows whether they are linear (1× is linear; 10× would be quadratic).
///
/// - A run of N one-step write flows at speed 1000 (what `taskflow run --headless --speed 1000`
///   does without the printing), beside raw Swift doing the least such a run must: N tasks that
///   each hop to the main actor once.
/// - `check` of a file with N one-step flows: read, scan, parse, validate.
/// - A theme with N unknown keys: every one reported, at its line and column.
@concurrent
func runScenarioBenchmarks() async {
    var table = ResultTable(title: "Scenario files and runs (\(buildConfiguration); baselines measured in the same run)")
    await benchmarkRuns(&table)
    benchmarkChecks(&table)
    benchmarkThemes(&table)
    BenchmarkReport.publish(table)
}

/// The sizes compared: the larger is ten times the smaller.
private let sizes = (small: 10_000, large: 100_000)

/// The target for a per-item cost at the large size against the small one: linear, with room
/// for caches and allocators that do slow down a little as memory grows.
private let linearTarget = "≤ 2× (linear)"

// MARK: - Runs

private func benchmarkRuns(_ table: inout ResultTable) async {
    var perFlow: [Double] = []
    for flows in [sizes.small, sizes.large] {
        let scenario = oneStepFlows(flows)
        let run = nanoseconds(await measure {
            let outcomes = await ScenarioRunner(scenario: scenario, options: RunOptions(speed: 1000)).start().finished()
            precondition(outcomes.count == flows, "every flow runs")
        })
        let baseline = nanoseconds(await measure { await mainActorHops(flows) })
        perFlow.append(run / Double(flows))
        table.add(
            "run \(flows) one-step flows, speed 1000", taskFlow: formatNanoseconds(run),
            baseline: formatNanoseconds(baseline), ratio: formatRatio(run / baseline), target: "—", verdict: .info)
    }
    addScaling("run: time per flow, \(sizes.large) vs \(sizes.small)", perFlow, to: &table)
}

/// What raw Swift needs for the same number of foreground steps: one task per flow, each
/// hopping to the main actor once, all awaited.
private func mainActorHops(_ count: Int) async {
    await withDiscardingTaskGroup { group in
        for _ in 0..<count {
            group.addTask { await MainActor.run {} }
        }
    }
}

/// `flows` write flows of one instant main step each, all starting at once.
private func oneStepFlows(_ flows: Int) -> TaskFlowScenario.Scenario {
    let step = StepSpec(title: "step", kind: .main(StepWork()))
    return TaskFlowScenario.Scenario(
        name: "benchmark", flows: (0..<flows).map { FlowSpec(title: "flow \($0)", steps: [step]) })
}

// MARK: - Checks

private func benchmarkChecks(_ table: inout ResultTable) {
    var perFlow: [Double] = []
    for flows in [sizes.small, sizes.large] {
        let text = "name = \"benchmark\"\n" + String(repeating: "[[flow]]\ntitle = \"flow\"\n[[flow.step]]\nmain = \"step\"\n", count: flows)
        let check = nanoseconds(measureSync {
            guard let scenario = try? TaskFlowScenario.Scenario.parse(text, file: "benchmark.toml") else {
                preconditionFailure("the generated file is valid")
            }
            precondition(scenario.flows.count == flows, "every flow is read")
        })
        // The least any reader does: look at every character once.
        let baseline = nanoseconds(measureSync { precondition(text.unicodeScalars.reduce(0) { $0 &+ Int($1.value) } > 0) })
        perFlow.append(check / Double(flows))
        table.add(
            "check a file of \(flows) flows (\(text.utf8.count >> 10) KiB)", taskFlow: formatNanoseconds(check),
            baseline: formatNanoseconds(baseline), ratio: formatRatio(check / baseline), target: "—", verdict: .info)
    }
    addScaling("check: time per flow, \(sizes.large) vs \(sizes.small)", perFlow, to: &table)
}

// MARK: - Themes

private func benchmarkThemes(_ table: inout ResultTable) {
    var perKey: [Double] = []
    for keys in [sizes.small / 5, sizes.large / 5] {
        let text = (0..<keys).map { "unknown\($0) = \"red\"\n" }.joined()
        var reported = 0
        let parse = nanoseconds(measureSync {
            do {
                _ = try ThemeParser().parse(text, name: "benchmark", file: "benchmark.toml")
            } catch let error as ThemeError {
                reported = error.diagnostics.count
            } catch {
                preconditionFailure("a theme reports a ThemeError")
            }
        })
        precondition(reported == keys, "every unknown key is reported")
        perKey.append(parse / Double(keys))
        table.add(
            "theme with \(keys) unknown keys, all reported", taskFlow: formatNanoseconds(parse),
            baseline: "—", ratio: "—", target: "—", verdict: .info)
    }
    addScaling("theme: time per key, \(sizes.large / 5) vs \(sizes.small / 5)", perKey, to: &table)
}

// MARK: - Helpers

/// A row comparing the per-item cost at the large size (the TaskFlow column) with the small
/// one's (the baseline column): their ratio is 1× when the cost is linear.
private func addScaling(_ figure: String, _ perItem: [Double], to table: inout ResultTable) {
    let ratio = perItem[1] / perItem[0]
    table.add(
        figure, taskFlow: formatNanoseconds(perItem[1]), baseline: formatNanoseconds(perItem[0]),
        ratio: formatRatio(ratio), target: linearTarget, verdict: ratio <= 2 ? .met : .missed)
}

/// How long synchronous `body` takes, on the continuous clock.
private func measureSync(_ body: () -> Void) -> Duration {
    let start = ContinuousClock.now
    body()
    return ContinuousClock.now - start
}
