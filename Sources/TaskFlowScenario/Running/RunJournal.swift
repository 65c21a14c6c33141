import TaskFlow

/// What a run has submitted so far, and what its read flows saw. An actor because the
/// launcher records submissions and read flows record snapshots from their own tasks while
/// callers ask from others.
actor RunJournal {
    /// What is kept; with `.unfinished` a flow is forgotten once it finished.
    nonisolated let retention: JournalRetention
    /// The flows submitted, in submission order; with `.unfinished`, finished ones linger until
    /// the next sweep (see ``record(_:)``).
    private var submitted: [ScenarioFlow] = []
    /// With `.unfinished`, how many flows ``submitted`` may hold before the finished ones are
    /// dropped: twice what the last sweep left, so that a sweep costs O(1) per submission
    /// amortised and the journal holds at most about twice the flows still unfinished.
    private var sweepAt = RunJournal.smallestSweep
    private var snapshots: [FlowID: ScenarioState] = [:]
    private var launchesEnded = false
    /// Every flow due at the start (time zero) was submitted, or the run was stopped first.
    private var startSubmitted = false
    private var startWaiters: [CheckedContinuation<Void, Never>] = []
    private var waiters: [(title: String, continuation: CheckedContinuation<ScenarioFlow?, Never>)] = []

    init(retention: JournalRetention) {
        self.retention = retention
    }

    /// The fewest flows a sweep waits for: sweeping a handful at a time would cost more than
    /// it frees.
    private static let smallestSweep = 64

    /// Every flow submitted so far, in submission order; with `.unfinished`, those not finished.
    var flows: [ScenarioFlow] {
        retention == .everything ? submitted : submitted.filter { !$0.handle.status.isFinished }
    }

    /// Records a submission. With `.unfinished`, every so often the flows that finished are
    /// dropped here, in one pass, rather than each as it ends: a task per flow awaiting its end
    /// and removing it from the array was quadratic, in the removals and in the task group the
    /// tasks were children of, and a quit rolling back 100,000 flows spent minutes in it, with
    /// the cooperative pool too busy to run the flows or hand their events on.
    func record(_ flow: ScenarioFlow) {
        submitted.append(flow)
        if retention == .unfinished, submitted.count >= sweepAt {
            submitted.removeAll { $0.handle.status.isFinished }
            sweepAt = max(2 * submitted.count, Self.smallestSweep)
        }
        let (ready, waiting) = waiters.partitioned { $0.title == flow.title }
        waiters = waiting
        for waiter in ready { waiter.continuation.resume(returning: flow) }
    }

    /// The flows due at the start are submitted (or none will be): their waiters go on.
    func endStartSubmissions() {
        guard !startSubmitted else { return }
        startSubmitted = true
        for waiter in startWaiters { waiter.resume() }
        startWaiters = []
    }

    /// Returns once the flows due at the start are submitted.
    func startSubmissions() async {
        if startSubmitted { return }
        await withCheckedContinuation { startWaiters.append($0) }
    }

    /// No more submissions will come: waiters for titles never submitted get nil.
    func endLaunches() {
        launchesEnded = true
        for waiter in waiters { waiter.continuation.resume(returning: nil) }
        waiters = []
    }

    /// The first flow submitted with `title`, waiting for it if it is still to come.
    func flow(titled title: String) async -> ScenarioFlow? {
        if let flow = flows.first(where: { $0.title == title }) { return flow }
        if launchesEnded { return nil }
        return await withCheckedContinuation { waiters.append((title, $0)) }
    }

    func recordSnapshot(_ state: ScenarioState, of flow: FlowID) {
        snapshots[flow] = state
    }

    func snapshot(of flow: FlowID) -> ScenarioState? { snapshots[flow] }
}

extension Array {
    /// The elements that satisfy `belongs`, then the others, each in their original order.
    fileprivate func partitioned(by belongs: (Element) -> Bool) -> (matching: [Element], rest: [Element]) {
        reduce(into: ([], [])) { parts, element in
            if belongs(element) { parts.matching.append(element) } else { parts.rest.append(element) }
        }
    }
}
