/// The table every benchmark figure ends up in: figure | TaskFlow | baseline | ratio | target |
/// met. Each row carries a TaskFlow figure and the raw Swift baseline measured in the same run,
/// so a reader compares like with like without rerunning anything.
struct ResultTable: Sendable {
    /// Whether a row's target is met; `info` rows only give context.
    enum Verdict: String, Sendable {
        case met = "yes"
        case missed = "NO"
        case info = "—"
    }

    struct Row: Sendable {
        let figure: String
        let taskFlow: String
        let baseline: String
        let ratio: String
        let target: String
        let verdict: Verdict

        /// The ratio as a number (`2.41×` is 2.41); nil when the row has none.
        var ratioValue: Double? {
            guard ratio.hasSuffix("×") else { return nil }
            return Double(ratio.dropLast())
        }

        /// The bound on the ratio the target states, `≤ 2× raw task` or `≥ 0.6× raw lock`; nil
        /// when the target bounds something else (a time, a rate) or nothing.
        var ratioLimit: RatioLimit? { RatioLimit(target) }
    }

    /// A target on a ratio: at most or at least `value` times the baseline.
    struct RatioLimit: Sendable, Equatable {
        /// `≤` (a cost) or `≥` (a throughput).
        let atMost: Bool
        let value: Double

        /// The first `≤ N×` or `≥ N×` in `target`.
        init?(_ target: String) {
            guard let match = target.firstMatch(of: /([≤≥])\s*([0-9]+(?:\.[0-9]+)?)×/), let value = Double(match.2) else { return nil }
            atMost = match.1 == "≤"
            self.value = value
        }

        /// How many times worse than the target `ratio` is (1 at the target, 2 at twice it: a
        /// cost twice the limit, or a throughput half of it).
        func excess(of ratio: Double) -> Double {
            atMost ? ratio / value : value / ratio
        }
    }

    let title: String
    private(set) var rows: [Row] = []

    init(title: String) { self.title = title }

    mutating func add(
        _ figure: String, taskFlow: String, baseline: String, ratio: String, target: String, verdict: Verdict
    ) {
        rows.append(Row(figure: figure, taskFlow: taskFlow, baseline: baseline, ratio: ratio, target: target, verdict: verdict))
    }

    /// The table as aligned text, with a header and a rule.
    func render() -> String {
        let header = ["figure", "TaskFlow", "baseline", "ratio", "target", "met"]
        let cells = rows.map { [$0.figure, $0.taskFlow, $0.baseline, $0.ratio, $0.target, $0.verdict.rawValue] }
        var widths = header.map(\.count)
        for row in cells {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        func line(_ row: [String]) -> String {
            row.enumerated().map { column, cell in
                // Figures and targets read best left-aligned, numbers right-aligned.
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 || column == 4 ? cell + padding : padding + cell
            }.joined(separator: " | ")
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "-|-")
        return ([title, line(header), rule] + cells.map(line)).joined(separator: "\n")
    }
}
