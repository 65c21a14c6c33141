import Testing
@testable import TaskFlowScenario

/// The diagnostics of `text`, or none when it is a valid scenario.
func problems(in text: String) -> [ScenarioDiagnostic] {
    do {
        _ = try Scenario.parse(text, file: "test.toml")
        return []
    } catch {
        return error.diagnostics
    }
}

/// The single diagnostic of `text`; records an issue when there is not exactly one.
func problem(in text: String, sourceLocation: SourceLocation = #_sourceLocation) -> ScenarioDiagnostic? {
    let found = problems(in: text)
    #expect(found.count == 1, "expected one problem, got: \(found)", sourceLocation: sourceLocation)
    return found.first
}

/// A valid scenario whose only flow's only step is `step` (TOML lines of a `[[flow.step]]`),
/// in a flow with `flowKeys`. The step's table starts on line 6.
func scenario(flow flowKeys: String = "", step: String) -> String {
    """
    name = "Test"
    [[flow]]
    title = "Flow"
    \(flowKeys)
    [[flow.step]]
    \(step)
    """
}
