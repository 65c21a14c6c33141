import Synchronization
import TaskFlow

func benchmarkGroupChildren(_ table: inout ResultTable) async throws {
    progress("group children")
    let children = CoreWorkload.groupChildren
    let reps = CoreWorkload.groupReps
    _ = try await timeComposite(children, reps: 3, parallel: true, revert: true) // warm-up
    _ = try await timeRawGroupChildren(children, reps: 3)
    let raw = try await timeRawGroupChildren(children, reps: reps)
    let flow = try await timeComposite(children, reps: reps, parallel: true, revert: true)
    CoreFigures.record { $0.groupChild = flow }
    table.add(
        "flow.group child (\(children) no-op children)", taskFlow: formatNanoseconds(flow),
        baseline: formatNanoseconds(raw) + " (task group)", ratio: formatRatio(flow / raw),
        target: "≤ 1.25× raw child", verdict: verdict(flow / raw <= 1.25))
}

/// Median nanoseconds per child of `flow.group` (or `flow.sequence` unless `parallel`) with
/// `children` no-op background steps, built inside the timed call as a caller writes it.
func timeComposite(_ children: Int, reps: Int, parallel: Bool, revert: Bool) async throws -> Double {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    let perChild = try await manager.execute(title: "composites", access: .write) { flow in
        func build(_ builder: CompositeBuilder<Void>) {
            for _ in 0..<children {
                if revert {
                    builder.task(title: "child", apply: { _ in }, revert: { _, _ in })
                } else {
                    builder.task(title: "child", apply: { _ in })
                }
            }
        }
        var perChild: [Double] = []
        for _ in 0..<reps {
            let elapsed = try await measure {
                if parallel {
                    try await flow.group(title: "group", build)
                } else {
                    try await flow.sequence(title: "sequence", build)
                }
            }
            perChild.append(nanoseconds(elapsed) / Double(children))
        }
        return perChild
    }.value
    return Samples(perChild).median
}

/// Median nanoseconds per child of a raw throwing task group whose children make one call.
private func timeRawGroupChildren(_ children: Int, reps: Int) async throws -> Double {
    var perChild: [Double] = []
    for _ in 0..<reps {
        let elapsed = try await measure {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for child in 0..<children {
                    group.addTask { _ = await opaqueAsyncCall(child) }
                }
                try await group.waitForAll()
            }
        }
        perChild.append(nanoseconds(elapsed) / Double(children))
    }
    return Samples(perChild).median
}
