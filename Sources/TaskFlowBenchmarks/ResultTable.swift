/// The table every benchmark figure ends up in: figure | TaskFlow | baseline | ratio | target |
/// met. Each row carries a TaskFlow figure and the raw Swift baseline measured in the same run,
/// so a reader compares like with like without rerunning anything.
struct ResultTable {
    /// Whether a row's target is met; `info` rows only give context.
    enum Verdict: String {
        case met = "yes"
        case missed = "NO"
        case info = "—"
    }

    struct Row {
        let figure: String
        let taskFlow: String
        let baseline: String
        let ratio: String
        let target: String
        let verdict: Verdict
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
