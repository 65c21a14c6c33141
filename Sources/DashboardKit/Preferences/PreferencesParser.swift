import TOMLSource

/// Reads ``Preferences`` from TOML:
///
/// ```toml
/// theme = "light"          # a name from Themes/ or a path to a .toml file
/// mouse = false
/// history = 5000
///
/// [sort]
/// flows = { column = "elapsed", order = "descending" }
///
/// [warnings]               # see WarningThresholds; each key optional
/// writer-read-phases = 3
/// writer-wait-seconds = 30
/// step-stall-seconds = 60
/// job-retries = 3
/// ```
///
/// The file is read like every other input file (same limits, same checks before TOMLKit), and
/// every mistake in it is reported at once, each at its `file:line:column`: an unknown key, a
/// value of the wrong type or out of range, a view or a column that does not exist.
package struct PreferencesParser: Sendable {
    /// The views whose sort a file may set, by preference key, each with its columns' names.
    let sortableViews: [String: [String]]

    /// A parser that accepts sorts for `sortableViews` (preference key → column names).
    package init(sortableViews: [String: [String]]) {
        self.sortableViews = sortableViews
    }

    /// The keys a file may have at its top level.
    static let keys = ["theme", "mouse", "history", "sort", "warnings"]

    /// The keys of `[warnings]`.
    static let warningKeys = ["writer-read-phases", "writer-wait-seconds", "step-stall-seconds", "job-retries"]

    /// The words `order` takes.
    static let orders = ["ascending", "descending"]

    /// Parses `source`, read from `file` (used in errors).
    package func parse(_ source: String, file: String) throws(PreferencesError) -> Preferences {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: source, file: file)
        } catch {
            throw PreferencesError(error.diagnostics)
        }
        let log = IssueLog()
        var preferences = Preferences()
        for (key, value) in document.root {
            read(key, value, into: &preferences, log: log)
        }
        guard log.issues.isEmpty else { throw PreferencesError(document.diagnostics(log, file: file)) }
        return preferences
    }

    private func read(_ key: String, _ value: TOMLNode, into preferences: inout Preferences, log: IssueLog) {
        let path = TOMLPath.root.appending(key)
        switch key {
        case "theme": preferences.theme = string(value, at: path, log: log)
        case "mouse": preferences.mouse = flag(value, at: path, log: log)
        case "history": preferences.history = history(value, at: path, log: log)
        case "sort": preferences.sorts = sorts(value, at: path, log: log)
        case "warnings": preferences.warnings = warnings(value, at: path, log: log)
        default: log.key(path, "unknown setting '\(key.echoed())'; use \(Self.keys.joined(separator: ", "))")
        }
    }

    private func history(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> Int? {
        count(value, within: FlowBoard.historyLimits, at: path, log: log)
    }

    /// `[sort]`: a table per view, `{ column = "…", order = "ascending" | "descending" }`.
    private func sorts(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> [String: SavedSort] {
        guard case .table(let views) = value else {
            log.value(path, "'sort' must be a table of views, like [sort] flows = { column = \"title\", order = \"ascending\" }")
            return [:]
        }
        var sorts: [String: SavedSort] = [:]
        for (view, setting) in views {
            let viewPath = path.appending(view)
            guard let columns = sortableViews[view] else {
                log.key(viewPath, "no view '\(view.echoed())' to sort; use \(sortableViews.keys.sorted().joined(separator: ", "))")
                continue
            }
            sorts[view] = sort(setting, columns: columns, at: viewPath, log: log)
        }
        return sorts
    }

    private func sort(_ value: TOMLNode, columns: [String], at path: TOMLPath, log: IssueLog) -> SavedSort? {
        guard case .table(let fields) = value else {
            log.value(path, "'\(path.dottedKeys.echoed())' must be a table like { column = \"\(columns.first ?? "title")\", order = \"ascending\" }")
            return nil
        }
        var column: String?
        var ascending = true
        for (key, field) in fields {
            let fieldPath = path.appending(key)
            switch key {
            case "column":
                guard let name = string(field, at: fieldPath, log: log) else { continue }
                guard columns.contains(name) else {
                    log.value(fieldPath, "no column \"\(name.echoed())\" in this view; use \(columns.joined(separator: ", "))")
                    continue
                }
                column = name
            case "order":
                guard let order = string(field, at: fieldPath, log: log) else { continue }
                guard Self.orders.contains(order) else {
                    log.value(fieldPath, "'order' is \"ascending\" or \"descending\", not \"\(order.echoed())\"")
                    continue
                }
                ascending = order == "ascending"
            default:
                log.key(fieldPath, "unknown key '\(key.echoed())'; use column, order")
            }
        }
        guard let column else {
            if !fields.keys.contains("column") { log.key(path, "'\(path.dottedKeys.echoed())' needs a column") }
            return nil
        }
        return SavedSort(column: column, ascending: ascending)
    }

    /// `[warnings]`: each key a threshold (see ``WarningThresholds``); those left out keep
    /// their defaults. Nil when the table is not a table.
    private func warnings(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> WarningThresholds? {
        guard case .table(let fields) = value else {
            log.value(path, "'warnings' must be a table, like [warnings] job-retries = 3")
            return nil
        }
        var thresholds = WarningThresholds()
        for (key, field) in fields {
            let fieldPath = path.appending(key)
            switch key {
            case "writer-read-phases": thresholds.writerReadPhases = count(field, at: fieldPath, log: log) ?? thresholds.writerReadPhases
            case "writer-wait-seconds": thresholds.writerWait = seconds(field, at: fieldPath, log: log) ?? thresholds.writerWait
            case "step-stall-seconds": thresholds.stepStall = seconds(field, at: fieldPath, log: log) ?? thresholds.stepStall
            case "job-retries": thresholds.jobRetries = count(field, at: fieldPath, log: log) ?? thresholds.jobRetries
            default: log.key(fieldPath, "unknown warning threshold '\(key.echoed())'; use \(Self.warningKeys.joined(separator: ", "))")
            }
        }
        return thresholds
    }

    /// A whole number within ``WarningThresholds/counts``.
    private func count(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> Int? {
        count(value, within: WarningThresholds.counts, at: path, log: log)
    }

    /// A whole number within `limits`; else an error naming the setting, the range and the value.
    private func count(_ value: TOMLNode, within limits: ClosedRange<Int>, at path: TOMLPath, log: IssueLog) -> Int? {
        guard case .integer(let count) = value else {
            log.value(path, "'\(path.dottedKeys.echoed())' must be a whole number, not \(value.typeDescription)")
            return nil
        }
        guard limits.contains(count) else {
            log.value(path, "'\(path.dottedKeys.echoed())' must be from \(limits.lowerBound) to \(limits.upperBound), not \(count)")
            return nil
        }
        return count
    }

    /// Seconds, whole or not, within ``WarningThresholds/seconds``.
    private func seconds(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> Duration? {
        let limits = WarningThresholds.seconds
        let seconds: Double
        switch value {
        case .integer(let whole): seconds = Double(whole)
        case .float(let number): seconds = number
        default:
            log.value(path, "'\(path.dottedKeys.echoed())' must be a number of seconds, not \(value.typeDescription)")
            return nil
        }
        guard limits.contains(seconds) else {
            let given = if case .integer(let whole) = value { "\(whole)" } else { "\(seconds)" }
            log.value(path, "'\(path.dottedKeys.echoed())' must be from \(limits.lowerBound) to \(Int(limits.upperBound)) seconds, not \(given)")
            return nil
        }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    private func string(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> String? {
        guard case .string(let text) = value else {
            log.value(path, "'\(path.dottedKeys.echoed())' must be a string, not \(value.typeDescription)")
            return nil
        }
        return text
    }

    private func flag(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> Bool? {
        guard case .bool(let flag) = value else {
            log.value(path, "'\(path.dottedKeys.echoed())' must be true or false, not \(value.typeDescription)")
            return nil
        }
        return flag
    }
}

extension PreferencesParser {
    /// The parser for the dashboard's own views and their columns.
    package static var dashboard: PreferencesParser {
        PreferencesParser(sortableViews: [
            FlowsTab.preferenceKey: FlowsTab.sortColumns, QueuesTab.preferenceKey: QueuesTab.sortColumns,
            StoreTab.preferenceKey: StoreTab.sortColumns,
        ])
    }
}
