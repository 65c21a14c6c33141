import ArgumentParser
import Foundation
import TOMLSource
import TaskFlowStore

/// `taskflow jobs list`: a page of the store's jobs — the oldest 100 unless told otherwise —
/// and how many more match. A store may hold millions: the jobs are read a page at a time from
/// an index and each page is written as it comes, so the command takes the time and memory of
/// what it prints.
struct JobsListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "List the store's jobs, the oldest \(defaultLimit) first: state, retries, and why one waits or failed.",
        discussion: """
            Without --all, a line after the table says how many more jobs match (with --json, \
            on standard error: the output stays one JSON array, written as the jobs are read). \
            The table shows no payloads, and reads none; --json includes them, redacted.

            Examples:
              taskflow jobs list --state failed,parked --kind send-email
              taskflow jobs list --newest --limit 20
              taskflow jobs list --all --json > jobs.json
            """)

    /// How many jobs a listing shows unless told: a screenful or two, at once on any store.
    static let defaultLimit = 100
    /// What `--limit` takes: beyond a million, `--all` says what is meant.
    static let limits = 1...1_000_000
    /// How many jobs one read of the store takes: what the command holds in memory at a time.
    static let pageSize = 1_000

    @OptionGroup var store: StoreOptions

    @Option(
        name: .customLong("state"),
        help: ArgumentHelp(
            "Only jobs in this state: pending, running, parked, scheduled or failed. Repeat it, or give a comma list, for several.",
            valueName: "state"))
    var stateNames: [String] = []

    @Flag(help: "Only the failed list (--state failed).")
    var failed = false

    @Option(help: "Only jobs of this kind.")
    var kind: String?

    @Flag(help: "The newest jobs first (default: the oldest, the order in which they are claimed).")
    var newest = false

    @Option(
        help: ArgumentHelp(
            "List at most N jobs, \(NumberArgument.describe(limits)) (default \(defaultLimit); --all lists every job).", valueName: "N"),
        transform: NumberArgument.whole(in: limits))
    var limit: Int?

    @Flag(help: "List every job that matches.")
    var all = false

    func validate() throws {
        if all && limit != nil { throw ValidationError("give --limit N or --all, not both") }
        _ = try states()
    }

    func run() throws {
        let jobStore = try store.open(.read)
        var query = StoredJobQuery(
            states: try states(), kind: kind, order: newest ? .newestFirst : .oldestFirst, includesPayloads: store.json)
        let bound = all ? Int.max : limit ?? Self.defaultLimit
        var writer = JobListWriter(format: store.json ? .json : .table(now: .now))
        var listed = 0
        while listed < bound {
            query.limit = min(Self.pageSize, bound - listed)
            let pageQuery = query
            let page = try awaitingStore { try await jobStore.jobs(matching: pageQuery) }
            writer.write(page)
            listed += page.count
            guard page.count == pageQuery.limit, let last = page.last else {
                // A short page is the last of the jobs that match.
                return writer.finish(notListed: 0)
            }
            query.after = last.id
        }
        let rest = query
        writer.finish(notListed: try awaitingStore { try await jobStore.count(matching: rest) })
    }

    /// The states asked for with `--state` (each a name or a comma list) and `--failed`; empty
    /// for every state.
    private func states() throws -> Set<StoredJobState> {
        let names = stateNames.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let states = try names.map { name in
            let trimmed = name.trimmingCharacters(in: .whitespaces)
            // `damaged` is what a reader makes of a row, not a state a row stores: it selects nothing.
            guard let state = StoredJobState(rawValue: trimmed), state != .damaged else {
                let known = StoredJobState.allCases.filter { $0 != .damaged }.map(\.rawValue).joined(separator: ", ")
                throw ValidationError("unknown state '\(trimmed.escapingControlCharacters)': the states are \(known)")
            }
            return state
        }
        return Set(states + (failed ? [.failed] : []))
    }
}
