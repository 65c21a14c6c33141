import TaskFlow
import TOMLSource

/// Decodes `[[queue]]` and `[[job]]` tables, then checks what links them: every job's queue
/// exists, every title in `after` names another job, and `after` goes round in no circle.
struct JobDecoder {
    let log: IssueLog

    func queues(_ tables: [(path: TOMLPath, entries: [String: TOMLNode])]) -> [QueueSpec] {
        let queues = tables.map(queue)
        reportDuplicates(queues.map(\.title), at: tables.map(\.path), what: "queue")
        // Threads start with the run: a file must not be able to exhaust the machine's.
        var threads = 0
        for (queue, table) in zip(queues, tables) where queue.isBlocking {
            threads += queue.maxConcurrent
            if threads > QueueSpec.maximumConcurrency {
                log.value(table.path.appending("threads"), "the blocking queues ask for \(threads) threads so far; "
                    + "a scenario may start at most \(QueueSpec.maximumConcurrency) in all")
                break
            }
        }
        return queues
    }

    /// The jobs, checked against `queues` (by title) and each other.
    func jobs(_ tables: [(path: TOMLPath, entries: [String: TOMLNode])], queues: [QueueSpec]) -> [JobSpec] {
        let known = KnownQueues(queues)
        let decoded = tables.map { table in job(at: table.path, table.entries, queues: known) }
        let jobs = decoded.map(\.spec)
        reportDuplicates(jobs.map(\.title), at: tables.map(\.path), what: "job")
        let titles = Set(jobs.map(\.title))
        for (job, paths) in zip(jobs, decoded.map(\.afterPaths)) {
            for (title, path) in zip(job.after, paths) where !titles.contains(title) {
                log.value(path, "job '\(job.title.echoed())' waits for '\(title.echoed())', but no job has that title")
            }
        }
        reportCycle(in: jobs, at: tables.map { $0.path.appending("after") })
        return jobs
    }

    // MARK: - Queues

    private func queue(at path: TOMLPath, _ entries: [String: TOMLNode]) -> QueueSpec {
        let reader = TableReader(
            entries, at: path, name: TableReader.name("queue", titledBy: entries["title"]), log: log, allowed: ["title", "max_concurrent", "threads"])
        let limit = QueueSpec.maximumConcurrency
        let maxConcurrent = reader.integer("max_concurrent", atLeast: 1, atMost: limit)
        let threads = reader.integer("threads", atLeast: 1, atMost: limit)
        if reader.contains("max_concurrent"), reader.contains("threads") {
            log.key(path.appending("threads"), "a blocking queue runs as many jobs at once as it has threads: "
                + "give 'threads' or 'max_concurrent', not both")
        }
        return QueueSpec(title: reader.title("title") ?? "", maxConcurrent: threads ?? maxConcurrent ?? 1, isBlocking: threads != nil)
    }

    // MARK: - Jobs

    private func job(
        at path: TOMLPath, _ entries: [String: TOMLNode], queues: KnownQueues
    ) -> (spec: JobSpec, afterPaths: [TOMLPath]) {
        let reader = TableReader(
            entries, at: path, name: TableReader.name("job", titledBy: entries["title"]), log: log,
            allowed: ["title", "queue", "priority", "start", "duration", "after", "retry", "fail_times", "fail_chance"])
        let title = reader.title("title") ?? ""
        let after = strings(reader, "after")
        if reader.contains("fail_times"), reader.contains("fail_chance") {
            log.key(path.appending("fail_chance"), "give 'fail_times' or 'fail_chance', not both")
        }
        let spec = JobSpec(
            title: title,
            queue: queue(reader, among: queues),
            priority: priority(reader),
            start: reader.duration("start") ?? .zero,
            duration: reader.duration("duration") ?? .zero,
            after: after.map(\.text),
            retry: reader.table("retry").map { retry(at: $0.path, $0.entries) } ?? .never,
            failTimes: reader.integer("fail_times", atLeast: 0, atMost: RetrySpec.maximumAttempts) ?? 0,
            failChance: reader.fraction("fail_chance") ?? 0)
        return (spec, after.map(\.path))
    }

    private func queue(_ reader: TableReader, among queues: KnownQueues) -> String {
        guard let title = reader.title("queue") else { return "" }
        if !queues.titles.contains(title) {
            let known = queues.titles.isEmpty
                ? "the scenario has no [[queue]] tables: add one titled '\(title.echoed())'"
                : "the queues are: " + queues.listed
            log.value(reader.path.appending("queue"), "no queue is titled '\(title.echoed())'; \(known)")
        }
        return title
    }

    /// The queues' titles, and the list a message names them with, made once for the whole
    /// file (a message per job that sorted every title would cost the square of the file).
    struct KnownQueues {
        let titles: Set<String>
        let listed: String

        init(_ queues: [QueueSpec]) {
            titles = Set(queues.map(\.title))
            let sorted = titles.sorted()
            let shown = sorted.prefix(10).map { "'\($0.echoed())'" }.joined(separator: ", ")
            listed = sorted.count > 10 ? "\(shown) and \(sorted.count - 10) more" : shown
        }
    }

    private func priority(_ reader: TableReader) -> JobPriority {
        guard let text = reader.string("priority") else { return .normal }
        guard let priority = JobPriority.allCases.first(where: { $0.description == text }) else {
            log.value(reader.path.appending("priority"), "'priority' must be \"low\", \"normal\" or \"high\", not \"\(text.echoed())\"")
            return .normal
        }
        return priority
    }

    /// An array of strings, each with its path; elements of another type are reported.
    private func strings(_ reader: TableReader, _ key: String) -> [(text: String, path: TOMLPath)] {
        guard let node = reader.node(key) else { return [] }
        guard case .array(let elements) = node else {
            log.value(reader.path.appending(key), "'\(key)' must be an array of job titles, not \(node.typeDescription)")
            return []
        }
        var seen = Set<String>()
        return elements.enumerated().compactMap { index, element in
            let path = reader.path.appending(key).appending(index: index)
            guard case .string(let text) = element else {
                log.value(path, "each element of '\(key)' must be a job title (a string), not \(element.typeDescription)")
                return nil
            }
            guard seen.insert(text).inserted else {
                log.value(path, "'\(text.echoed())' is named twice in '\(key)'")
                return nil
            }
            return (text, path)
        }
    }

    // MARK: - Retry

    private func retry(at path: TOMLPath, _ entries: [String: TOMLNode]) -> RetrySpec {
        let reader = TableReader(
            entries, at: path, name: "'retry'", log: log,
            allowed: ["max_attempts", "backoff", "initial", "multiplier", "cap", "jitter"])
        if !reader.contains("max_attempts") { reader.reportMissing("max_attempts", "how many runs in all, the first included") }
        let maxAttempts = reader.integer("max_attempts", atLeast: 1, atMost: RetrySpec.maximumAttempts) ?? 1
        let jitter = reader.fraction("jitter") ?? 0
        let kind = reader.string("backoff") ?? "immediate"
        let backoff: RetryPolicy.Backoff
        switch kind {
        case "immediate":
            refuse(["initial", "multiplier", "cap", "jitter"], in: reader, for: kind)
            backoff = .immediate
        case "constant":
            refuse(["multiplier", "cap"], in: reader, for: kind)
            backoff = .constant(initial(reader, for: kind))
        case "exponential":
            backoff = .exponential(initial: initial(reader, for: kind), multiplier: multiplier(reader), cap: reader.duration("cap") ?? DurationText.longest)
        default:
            log.value(path.appending("backoff"), "'backoff' must be \"immediate\", \"constant\" or \"exponential\", not \"\(kind.echoed())\"")
            backoff = .immediate
        }
        return RetrySpec(maxAttempts: maxAttempts, backoff: backoff, jitter: jitter)
    }

    private func initial(_ reader: TableReader, for kind: String) -> Duration {
        if !reader.contains("initial") { reader.reportMissing("initial", "the delay before the first retry, with backoff = \"\(kind)\"") }
        return reader.duration("initial") ?? .zero
    }

    private func multiplier(_ reader: TableReader) -> Double {
        guard let node = reader.node("multiplier") else { return 2 }
        let path = reader.path.appending("multiplier")
        let value: Double? = switch node {
        case .integer(let value): Double(value)
        case .float(let value): value
        default: nil
        }
        guard let value, value.isFinite, (1...1_000).contains(value) else {
            log.value(path, "'multiplier' must be a number from 1 to 1000, not \(value.map { "\($0)" } ?? node.typeDescription)")
            return 2
        }
        return value
    }

    private func refuse(_ keys: [String], in reader: TableReader, for kind: String) {
        for key in keys where reader.contains(key) {
            log.key(reader.path.appending(key), "'\(key)' has no effect with backoff = \"\(kind)\"")
        }
    }

    // MARK: - Links

    /// Reports every title given to more than one table, at each later table.
    private func reportDuplicates(_ titles: [String], at paths: [TOMLPath], what: String) {
        var seen = Set<String>()
        for (title, path) in zip(titles, paths) where !title.isEmpty && !seen.insert(title).inserted {
            log.value(path.appending("title"), "another \(what) is titled '\(title.echoed())' already: \(what) titles must be unique")
        }
    }

    private func reportCycle(in jobs: [JobSpec], at paths: [TOMLPath]) {
        guard let cycle = JobGraph(jobs).cycle else { return }
        let names = (cycle + [cycle[0]]).map { "'\(jobs[$0].title.echoed())'" }.joined(separator: " → ")
        log.value(paths[cycle[0]], "job '\(jobs[cycle[0]].title.echoed())' waits for itself: \(names)")
    }
}
