/// Every submission of a scenario in the order the runner makes them: by start time, flows
/// with equal start times in file order (a flow's own submissions are `every > 0` apart, so
/// they stay in order). Produced lazily from one cursor per flow, so a flow repeated `times`
/// times costs nothing until its turn comes.
struct SubmissionSchedule: Sequence, IteratorProtocol {
    /// One submission: which flow, which of its submissions, and when.
    struct Submission: Equatable {
        let flowIndex: Int
        let submission: Int
        let start: Duration
    }

    private let flows: [FlowSpec]
    /// The next submission of each flow; `flows[i].submissions` once it has none left.
    private var cursors: [Int]

    init(_ flows: [FlowSpec]) {
        self.flows = flows
        cursors = Array(repeating: 0, count: flows.count)
    }

    /// The earliest pending submission, the first flow in the file winning a tie.
    mutating func next() -> Submission? {
        let pending = zip(flows, cursors).enumerated().compactMap { index, pair -> Submission? in
            let (flow, next) = pair
            return next < flow.submissions
                ? Submission(flowIndex: index, submission: next, start: flow.startOfSubmission(next)) : nil
        }
        guard let earliest = pending.min(by: { ($0.start, $0.flowIndex) < ($1.start, $1.flowIndex) }) else { return nil }
        cursors[earliest.flowIndex] += 1
        return earliest
    }
}
