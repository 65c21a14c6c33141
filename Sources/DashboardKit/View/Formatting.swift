import TaskFlow

extension Duration {
    /// A short human duration, at most 7 columns below 1,000 days: `0.4s`, `12.0s`, `3m07s`,
    /// `16h40m`, `3d04h` (a program attached to may have run for weeks). Negative shows as `0.0s`.
    package var compact: String {
        let milliseconds = wholeMilliseconds
        if milliseconds < 60_000 {
            return "\(milliseconds / 1000).\(milliseconds % 1000 / 100)s"
        }
        let seconds = milliseconds / 1000
        let (minutes, hours, days) = (seconds / 60, seconds / 3600, seconds / 86_400)
        if hours == 0 { return "\(minutes)m\(Self.twoDigits(seconds % 60))s" }
        if days == 0 { return "\(hours)h\(Self.twoDigits(minutes % 60))m" }
        return "\(days)d\(Self.twoDigits(hours % 24))h"
    }

    /// A delay to the millisecond below a second, where ``compact``'s tenths would round a
    /// short backoff to nothing: `62ms`, `1.5s`.
    package var delayText: String {
        let milliseconds = wholeMilliseconds
        return milliseconds < 1000 ? "\(milliseconds)ms" : compact
    }

    /// The whole milliseconds, 0 when negative, and at most a thousand years': a duration a
    /// peer sent may be as long as `Duration` holds, and its milliseconds overflow `Int64`.
    private var wholeMilliseconds: Int64 {
        let limit: Int64 = 1000 * 365 * 86_400
        let seconds = min(max(components.seconds, 0), limit)
        return max(seconds * 1000 + components.attoseconds / 1_000_000_000_000_000, 0)
    }

    private static func twoDigits(_ value: Int64) -> String {
        value < 10 ? "0\(value)" : "\(value)"
    }

    /// Seconds as a floating-point number, for JSON output.
    package var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

extension String {
    /// The string cut to `width` terminal columns, with `…` (or `.` in ASCII) marking the cut.
    /// Measured in columns, not characters, so wide characters cannot push it past `width`.
    func truncated(to width: Int, glyphs: Glyphs) -> String {
        guard width > 0 else { return "" }
        guard displayWidth > width else { return self }
        var kept = "", used = 0
        for character in self {
            let columns = DisplayWidth.columns(of: character)
            // The marker takes the last column.
            guard used + columns < width else { break }
            kept.append(character)
            used += columns
        }
        return kept + (glyphs.unicode ? "…" : ".")
    }
}

extension FlowPhase {
    /// The role that colours this phase.
    var role: StyleRole {
        switch self {
        case .queued: .statusQueued
        case .waiting: .statusWaiting
        case .running: .statusRunning
        case .cancelling, .rollingBack, .undoing: .statusRollingBack
        case .completed: .statusCompleted
        case .cancelled: .statusCancelled
        case .failed, .rollbackIncomplete: .statusFailed
        case .undone: .statusUndone
        }
    }
}

extension StepStatus {
    /// The role that colours this step status.
    var role: StyleRole {
        switch self {
        case .running: .statusRunning
        case .completed: .statusCompleted
        case .cancelled: .statusCancelled
        case .failed, .revertFailed: .statusFailed
        case .reverting: .statusRollingBack
        case .reverted: .statusUndone
        }
    }
}

extension LogLevel {
    /// The role that colours log lines of this level.
    var role: StyleRole {
        switch self {
        case .info: .logInfo
        case .warning: .logWarning
        case .error: .logError
        }
    }
}
