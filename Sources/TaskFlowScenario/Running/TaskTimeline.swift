/// When, within a task, things happen: `ticks` evenly spaced progress reports (the last at
/// 100 %) and the task's foreground sub-steps spread evenly between its start and end.
enum TaskTimeline {
    struct Mark: Equatable {
        enum Event: Equatable {
            /// Report progress and check for a cancel.
            case tick
            /// Run foreground sub-step `index`.
            case foreground(Int)
        }

        let fraction: Double
        let event: Event
    }

    /// The marks in time order; at equal times a sub-step comes before the tick, so 100 % is
    /// reported only once everything ran.
    static func marks(ticks: Int, foreground: Int) -> [Mark] {
        let progress = (1...max(ticks, 1)).map { Mark(fraction: Double($0) / Double(max(ticks, 1)), event: .tick) }
        let steps = (0..<foreground).map { Mark(fraction: Double($0 + 1) / Double(foreground + 1), event: .foreground($0)) }
        return (steps + progress).enumerated().sorted { lhs, rhs in
            (lhs.element.fraction, lhs.offset) < (rhs.element.fraction, rhs.offset)
        }.map(\.element)
    }
}
