import Testing

/// Waits until `condition` holds, checking every 20 ms, for at most `timeout`: tests wait for
/// what a user would see instead of sleeping a fixed time.
@MainActor
func eventually(
    timeout: Duration = .seconds(30), _ what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ condition: () -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else {
            Issue.record("timed out waiting for \(what)", sourceLocation: sourceLocation)
            return
        }
        try await Task.sleep(for: .milliseconds(20))
    }
}
