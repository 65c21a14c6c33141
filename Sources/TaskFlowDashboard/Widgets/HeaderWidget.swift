import TaskFlow

/// The top line: PAUSED, name and scenario, lock badge, queue length, counts per status. The
/// counts matter most, so on a narrow screen the scenario name gives way first, then the
/// lock badge's flow title.
struct HeaderWidget: Widget {
    let model: DashboardModel
    let glyphs: Glyphs

    /// The fewest columns the lock badge shrinks to (` WRITE M… `).
    static let minimumBadge = 10
    /// The most columns the lock badge takes, so a long flow title leaves room for the name.
    static let maximumBadge = 26
    /// Below this many columns the name is left out rather than shown as a stub.
    static let minimumTitle = 10

    private struct Segment {
        let text: String
        let role: StyleRole
    }

    func render(into grid: inout CellGrid, in rect: Rect) {
        grid.fill(rect, role: .header)
        let paused = model.paused ? [Segment(text: " PAUSED ", role: .paused)] : []
        var status = [queue] + counts(initials: false)
        if width(of: paused + status) + Self.minimumBadge > rect.width {
            // Every category counts at once: only initials leave room for the lock badge.
            status = [queue] + counts(initials: true)
        }
        let statusWidth = width(of: paused + status)
        let badge = lockBadge(width: rect.width - statusWidth)
        let title = title(width: rect.width - statusWidth - badge.text.displayWidth)
        var x = rect.x
        for segment in paused + [title, badge] + status {
            x += grid.put(segment.text, x: x, y: rect.y, role: segment.role, limit: rect.x + rect.width - x)
        }
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

    /// `wait 1 run 2 done 3` (`w1 r2 d3` with `initials`): waiting, running and done always;
    /// the rarer categories only once they count something, since `fail 0` would spend columns
    /// saying nothing happened. Each count has its status's colour.
    private func counts(initials: Bool) -> [Segment] {
        let counts = model.board.counts
        return PhaseCategory.allCases.flatMap { category -> [Segment] in
            let count = counts[category, default: 0]
            guard count > 0 || category.alwaysCounted else { return [] }
            let label = initials ? " \(category.shortLabel.prefix(1))" : " \(category.shortLabel) "
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
        case .done: .statusCompleted
        case .failed: .statusFailed
        case .cancelled: .statusCancelled
        case .undone: .statusUndone
        }
    }

    /// The header's label for this category: short, so that the counts fit at 60 columns, and
    /// each with its own initial for screens too narrow even for these.
    var shortLabel: String {
        switch self {
        case .waiting: "wait"
        case .running: "run"
        case .rollingBack: "back"
        case .done: "done"
        case .failed: "fail"
        case .cancelled: "cancel"
        case .undone: "undone"
        }
    }

    /// True for the categories the header counts even at zero.
    var alwaysCounted: Bool {
        switch self {
        case .waiting, .running, .done: true
        case .rollingBack, .failed, .cancelled, .undone: false
        }
    }
}
