import TaskFlow

/// The top line: PAUSED, the warnings' count (`⚠ 3`, `! 3` in ASCII), name and scenario, lock
/// badge, queue length, counts per status, and at the right end sparklines of flows (and jobs)
/// completed and failed per second over the last minute. The counts matter most, so on a narrow screen the sparklines give way first (they
/// only take columns the rest leaves free), then the scenario name, then the lock badge's flow
/// title.
struct HeaderWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs
    /// How many warnings hold (``DashboardModel/warnings``), counted once per frame by the view.
    var warnings = 0

    /// The fewest columns the lock badge shrinks to (` WRITE M… `).
    static let minimumBadge = 10
    /// The most columns the lock badge takes, so a long flow title leaves room for the name.
    static let maximumBadge = 26
    /// Below this many columns the name is left out rather than shown as a stub.
    static let minimumTitle = 10
    /// The columns the name should keep before the counters spell out whole names.
    static let roomyTitle = 24

    private struct Segment {
        let text: String
        let role: StyleRole
    }

    func render(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, role: .header)
        // The warnings' count goes first with PAUSED: something needs a look, on any width.
        let marks = (model.paused ? [Segment(text: " PAUSED ", role: .paused)] : [])
            + (warnings > 0 ? [Segment(text: glyphs.fold(" ⚠ \(warnings) "), role: .logWarning)] : [])
        // The longest labels that leave their room: every category may count at once.
        let labels = CounterLabels.allCases.first { labels in
            width(of: marks + [queue] + counts(labels)) + room(besides: labels) <= rect.width
        }
        let status = [queue] + counts(labels ?? .initial)
        let statusWidth = width(of: marks + status)
        let free = rect.width - statusWidth - lockBadge(width: Self.maximumBadge).text.displayWidth - title(width: .max).text.displayWidth
        let sparklines = sparklines(width: free)
        let rest = rect.width - width(of: sparklines)
        let badge = lockBadge(width: rest - statusWidth)
        let title = title(width: rest - statusWidth - badge.text.displayWidth)
        var x = rect.x
        for segment in marks + [title, badge] + status {
            x += grid.put(segment.text, x: x, y: rect.y, role: segment.role, limit: rect.x + rest - x)
        }
        x = rect.x + rest
        for segment in sparklines {
            x += grid.put(segment.text, x: x, y: rect.y, role: segment.role, limit: rect.x + rect.width - x)
        }
    }

    /// The fewest seconds a sparkline shows: fewer would show no trend.
    static let minimumSparkline = 8

    /// ` flows ▁▃█ fail ▁▁▅ jobs ▂▂▁ fail ▁▁▁ `: per second, the flows (and the jobs, with a
    /// queues view) that completed and that failed, the newest second last, as many seconds
    /// of the last minute as `width` columns leave room for; nothing when fewer than
    /// ``minimumSparkline`` would fit.
    private func sparklines(width: Int) -> [Segment] {
        var series = [(" flows ", model.shared.statistics.completions, model.shared.statistics.failures)]
        if let jobs = model.jobStatistics { series.append((" jobs ", jobs.completions, jobs.failures)) }
        let fixed = series.reduce(1) { $0 + $1.0.count + " fail ".count }
        let seconds = min((width - fixed) / (2 * series.count), PerSecondCounts.window)
        guard seconds >= Self.minimumSparkline else { return [] }
        let now = model.now
        return series.flatMap { label, completions, failures in
            [
                Segment(text: label, role: .header),
                Segment(text: Sparkline.render(Array(completions.counts(endingAt: now).suffix(seconds)), glyphs: glyphs), role: .statusCompleted),
                Segment(text: " fail ", role: .header),
                Segment(text: Sparkline.render(Array(failures.counts(endingAt: now).suffix(seconds)), glyphs: glyphs), role: .statusFailed),
            ]
        } + [Segment(text: " ", role: .header)]
    }

    /// ` TaskFlow · scenario`, cut to `width` columns, or nothing when that is too few.
    private func title(width: Int) -> Segment {
        let text = width >= Self.minimumTitle ? glyphs.fold(" TaskFlow · \(model.scenario) ").truncated(to: width, glyphs: glyphs) : ""
        return Segment(text: text, role: .header)
    }

    /// The lock's mode, its flow title cut to fit `width` columns (but not below
    /// ``minimumBadge`` nor above ``maximumBadge``).
    private func lockBadge(width: Int) -> Segment {
        let lock = model.board.lock
        let text = lock.mode == .idle ? "lock idle" : glyphs.fold(lock.mode.text(model.board))
        let room = min(max(width, Self.minimumBadge), Self.maximumBadge) - 2
        return Segment(text: " \(text.truncated(to: room, glyphs: glyphs)) ", role: lock.mode.role)
    }

    private var queue: Segment {
        Segment(text: " queue \(model.board.lock.queue.count) ", role: .header)
    }

    /// How much of each category's name the counters spell out.
    enum CounterLabels: CaseIterable {
        /// `waiting 1 running 2 completed 3`.
        case name
        /// `wait 1 run 2 compl 3`.
        case short
        /// `w1 r2 c3`.
        case initial
    }

    /// The columns the lock badge and the name need beside counters with these labels: whole
    /// names only when the badge and the name still show in full, then the badge at its least.
    private func room(besides labels: CounterLabels) -> Int {
        switch labels {
        case .name: Self.maximumBadge + Self.roomyTitle
        case .short: Self.minimumBadge
        case .initial: 0
        }
    }

    /// `waiting 1 running 2 completed 3`: waiting, running and completed always; the rarer
    /// categories only once they count something, since `failed 0` would spend columns saying
    /// nothing happened. Each count has its status's colour.
    private func counts(_ labels: CounterLabels) -> [Segment] {
        let counts = model.board.counts
        return PhaseCategory.allCases.flatMap { category -> [Segment] in
            let count = counts[category, default: 0]
            guard count > 0 || category.alwaysCounted else { return [] }
            let label = switch labels {
            case .name: " \(category.rawValue) "
            case .short: " \(category.shortLabel) "
            case .initial: " \(category.initial)"
            }
            return [Segment(text: label, role: .header), Segment(text: "\(count)", role: category.role)]
        }
    }

    private func width(of segments: [Segment]) -> Int {
        segments.reduce(0) { $0 + $1.text.displayWidth }
    }
}

extension PhaseCategory {
    /// The role of this category's counter in the header.
    var role: StyleRole {
        switch self {
        case .waiting: .statusWaiting
        case .running: .statusRunning
        case .rollingBack: .statusRollingBack
        case .completed: .statusCompleted
        case .failed: .statusFailed
        case .cancelled: .statusCancelled
        case .undone: .statusUndone
        }
    }

    /// The name cut short, for a header too narrow for whole names: the same word abbreviated.
    var shortLabel: String {
        switch self {
        case .waiting: "wait"
        case .running: "run"
        case .rollingBack: "back"
        case .completed: "compl"
        case .failed: "fail"
        case .cancelled: "cancel"
        case .undone: "undone"
        }
    }

    /// One letter each, for the narrowest screens; `x` for cancelled, since completed has `c`.
    var initial: Character {
        switch self {
        case .cancelled: "x"
        default: shortLabel.first ?? " "
        }
    }

    /// True for the categories the header counts even at zero.
    var alwaysCounted: Bool {
        switch self {
        case .waiting, .running, .completed: true
        case .rollingBack, .failed, .cancelled, .undone: false
        }
    }
}
