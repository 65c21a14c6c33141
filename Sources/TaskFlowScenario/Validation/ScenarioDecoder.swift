import TaskFlow
import TOMLSource

/// Turns a parsed document into a ``Scenario``, reporting every rule it breaks to the log.
/// Invalid parts are replaced by placeholders so the walk goes on: the result is only meant to
/// be used when the log stayed empty.
struct ScenarioDecoder {
    let log: IssueLog

    func scenario(_ root: [String: TOMLNode]) -> Scenario {
        let reader = TableReader(
            root, at: .root, name: "the scenario", log: log,
            allowed: ["name", "description", "seed", "flow", "queue", "job"])
        let flows = reader.tables("flow") ?? []
        let jobTables = reader.tables("job") ?? []
        if !reader.contains("flow"), !reader.contains("job") {
            reader.reportMissing("flow", "add at least one [[flow]] or [[job]] table")
        } else if flows.isEmpty, jobTables.isEmpty {
            let key = reader.contains("flow") ? "flow" : "job"
            log.key(reader.path.appending(key), "the scenario has no flows and no jobs: add at least one [[flow]] or [[job]] table")
        }
        let jobs = JobDecoder(log: log)
        let queues = jobs.queues(reader.tables("queue") ?? [])
        return Scenario(
            name: reader.title("name") ?? "",
            description: reader.string("description") ?? "",
            seed: reader.integer("seed", atLeast: 0).map(UInt64.init) ?? 0,
            flows: flows.map { flow(at: $0.path, $0.entries) },
            queues: queues,
            jobs: jobs.jobs(jobTables, queues: queues)
        )
    }

    private func flow(at path: TOMLPath, _ entries: [String: TOMLNode]) -> FlowSpec {
        let reader = TableReader(
            entries, at: path, name: TableReader.name("flow", titledBy: entries["title"]), log: log,
            allowed: ["title", "access", "start", "every", "times", "cancel_after", "step"])
        let access = access(reader)
        let start = reader.duration("start") ?? .zero
        return FlowSpec(
            title: reader.title("title") ?? "",
            access: access,
            start: start,
            repetition: repetition(reader, start: start),
            cancelAfter: reader.duration("cancel_after"),
            steps: steps(reader, access: access)
        )
    }

    private func access(_ reader: TableReader) -> FlowAccess {
        guard let text = reader.string("access") else { return .write }
        guard let access = FlowAccess(rawValue: text) else {
            log.value(reader.path.appending("access"), "'access' must be \"read\" or \"write\", not \"\(text.echoed())\"")
            return .write
        }
        return access
    }

    /// `every` and `times` go together: one without the other is a mistake, not a default. The
    /// last submission must start within ``DurationText/longest``, like any single duration.
    private func repetition(_ reader: TableReader, start: Duration) -> Repetition? {
        let every = reader.duration("every")
        let times = reader.integer("times", atLeast: 1, atMost: Repetition.maximumTimes)
        switch (reader.contains("every"), reader.contains("times")) {
        case (true, false):
            log.key(reader.path.appending("every"), "'every' needs 'times': how many submissions in total")
        case (false, true):
            log.key(reader.path.appending("times"), "'times' needs 'every': the time between two submissions")
        default:
            break
        }
        if every == .zero {
            log.value(reader.path.appending("every"), "'every' must be longer than 0ms")
        }
        guard let every, let times else { return nil }
        // Both factors are capped already, so this product cannot overflow.
        let lastStart = start + every * (times - 1)
        if lastStart > DurationText.longest {
            log.value(reader.path.appending("times"), "the last of \(times) submissions would start at "
                + "\(DurationText.format(lastStart)), after \(TableReader.longestText): lower 'start', 'every' or 'times'")
        }
        return Repetition(every: every, times: times)
    }

    private func steps(_ reader: TableReader, access: FlowAccess) -> [StepSpec] {
        guard reader.contains("step") else {
            reader.reportMissing("step", "add [[flow.step]] tables")
            return []
        }
        guard let tables = reader.tables("step") else { return [] }
        if tables.isEmpty {
            log.value(reader.path.appending("step"), "\(reader.name) has no steps")
        }
        let decoder = StepDecoder(log: log, access: access)
        return tables.map { decoder.step(at: $0.path, $0.entries, in: .flow) }
    }
}
