/// Waits until `condition` holds, checking every 2 ms, for at most `seconds` (by default two
/// minutes, a bound only a hang reaches: the whole suite in parallel on two cores has taken more
/// than 30 s to let a test's tasks run); returns whether it held. The one polling helper of every test target: tests wait for what a user would see
/// instead of sleeping a fixed time, and assert on the result (`#expect(await eventually {…})`),
/// so a slow machine only makes a test slower, never wrong, and a real hang fails with a message
/// instead of blocking the suite. It runs on the caller's actor, so `condition` may read
/// main-actor state, and it may await (a store's listing, say).
public func eventually(
    within seconds: Double = 120, isolation: isolated (any Actor)? = #isolation, _ condition: () async -> Bool
) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}
