import TaskFlowStore

/// Waits until `condition` holds, polling every 2 ms, for at most `seconds`; returns whether it
/// held. Tests assert the result, so a slow machine makes a test slower, never wrong.
func eventually(within seconds: Int = 30, _ condition: () async -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while ContinuousClock.now < deadline {
        if await condition() { return true }
        try? await Task.sleep(for: .milliseconds(2))
    }
    return await condition()
}

/// Lets an executor wait until the test opens it.
final class Gate: Sendable {
    private let opened = Flag()

    func open() { opened.set() }

    /// Returns once the gate is open.
    func wait() async {
        _ = await eventually { opened.isSet }
    }
}

/// Whether `store` holds no job at all (a listing error counts as not yet).
func isDrained(_ store: JobStore) async -> Bool {
    (try? await store.jobs().isEmpty) == true
}
