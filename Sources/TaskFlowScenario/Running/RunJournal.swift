import TaskFlow

/// What a run has submitted so far, and what its read flows saw. An actor because the
/// launcher records submissions and read flows record snapshots from their own tasks while
/// callers ask from others.
actor RunJournal {
    /// What is kept; with `.unfinished` a flow is forgotten once it finished.
    nonisolated let retention: JournalRetention
    private(set) var flows: [ScenarioFlow] = []
    private var snapshots: [FlowID: ScenarioState] = [:]
    private var launchesEnded = false
    private var waiters: [(title: String, continuation: CheckedContinuation<ScenarioFlow?, Never>)] = []

    init(retention: JournalRetention) {
        self.retention = retention
    }

    /// Forgets a finished flow (``JournalRetention/unfinished``). Linear in the flows still
    /// unfinished, which is what this retention keeps few of.
    func forget(_ flow: ScenarioFlow) {
        flows.removeAll { $0.id == flow.id }
    }

    func record(_ flow: ScenarioFlow) {
        flows.append(flow)
        let (ready, waiting) = waiters.partitioned { $0.title == flow.title }
        waiters = waiting
        for waiter in ready { waiter.continuation.resume(returning: flow) }
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
