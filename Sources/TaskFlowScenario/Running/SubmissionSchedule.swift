import HeapModule

/// Every submission of a scenario in the order the runner makes them: by start time, flows
/// with equal start times in file order (a flow's own submissions are `every > 0` apart, so
/// they stay in order). Produced lazily from one cursor per flow, kept in a min-heap by next
/// start, so each submission costs O(log flows) and a flow repeated `times` times costs nothing
/// until its turn comes: a run's schedule takes time linear in its submissions, not quadratic.
struct SubmissionSchedule: Sequence, IteratorProtocol {
    /// One submission: which flow, which of its submissions, and when.
    struct Submission: Equatable, Comparable {
        let flowIndex: Int
        let submission: Int
        let start: Duration

        /// Earlier first; at the same time, the flow written first.
        static func < (lhs: Submission, rhs: Submission) -> Bool {
            (lhs.start, lhs.flowIndex) < (rhs.start, rhs.flowIndex)
        }
    }

    private let flows: [FlowSpec]
    /// The next submission of each flow that has one left.
    private var pending: Heap<Submission>

    init(_ flows: [FlowSpec]) {
        self.flows = flows
        pending = Heap(flows.indices.filter { flows[$0].submissions > 0 }.map { Self.submission(0, of: flows[$0], at: $0) })
    }

    /// The earliest pending submission, the first flow in the file winning a tie.
    mutating func next() -> Submission? {
        guard let earliest = pending.popMin() else { return nil }
        let following = earliest.submission + 1
        if following < flows[earliest.flowIndex].submissions {
            pending.insert(Self.submission(following, of: flows[earliest.flowIndex], at: earliest.flowIndex))
        }
        return earliest
    }

    private static func submission(_ number: Int, of flow: FlowSpec, at index: Int) -> Submission {
        Submission(flowIndex: index, submission: number, start: flow.startOfSubmission(number))
    }
}
