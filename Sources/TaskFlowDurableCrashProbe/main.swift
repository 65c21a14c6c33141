// A process for the durable flows' crash test, which kills it with SIGKILL at the moments it
// chooses.
//
//     TaskFlowDurableCrashProbe STORE FOLDER LOG FLOWS FAIL_EVERY REVERT_DELAY_MS HOLD
//
// Opens the job store STORE (an SQLite file or a postgres:// URL), recovers what an earlier run
// left (`DurableFlows.recover()`), then runs durable write flows 0..<FLOWS one after another,
// skipping those already completed or failed. Flow `n` creates three files in FOLDER (steps
// titled `file <step>`; one after another in even flows, as a group's children in odd ones),
// named `flow-<n>-<flow id>-<step>` before each step, each step journaling the revert that
// deletes its file. The files are the flows' own completion marker: after a recovery every flow
// has all of its files or none, and the probe checks that before running more (exit 3 when
// not). Flows whose `n % FAIL_EVERY == FAIL_EVERY / 2` (one after another, whatever `n`) fail
// once their last file is created: they roll back in the process, never complete.
//
// LOG gets one line per event, each a single O_APPEND write, so a kill never loses or tears a
// line that was written: `run <pid>` at the start, `revert <flow id> <step>` when a revert
// handler starts (before it deletes anything), `recovered <count>` once recover() returned,
// `failed <n>` once a failing flow rolled back, and `done` at the end. Each revert handler
// takes REVERT_DELAY_MS in recover(), a quarter of it after. With HOLD `recovery-before`,
// `recovery-after`, `rollback-before` or `rollback-after`, the first revert handler to run in the
// recovery, or in a failing flow's rollback, stops for good before or after it deleted its file,
// and says where it is: the test's kill lands exactly
// there, whatever the machine's load. Standard output says `recovering` (before recover()),
// `running` (after the check), `progress <i>` after the i-th flow of this run, `reverting` or
// `rolling back` (a held handler, in a recovery or a rollback) and `done`, for the test to time
// its kills on what the probe did, never on a duration.
import Foundation
import TaskFlow
import TaskFlowPostgres
import TaskFlowStore
import TaskFlowSupport

/// The stored revert of one step: the file it creates, and whose step it is (for the log).
struct RemoveFile: StoredRevert {
    static let kind = "remove-file"
    let name: String
    let flow: Int
    let step: Int
}

/// How many files each flow creates (one step each).
let stepsPerFlow = 3

/// An append-only file of lines: each line one `write(2)` on an `O_APPEND` descriptor, whole
/// in the file once the call returned, whatever kills the process next.
struct AppendLog: Sendable {
    private let descriptor: Int32

    init(path: String) throws {
        descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        guard descriptor >= 0 else { throw ProbeFailure("cannot open \(path): errno \(errno)") }
    }

    func append(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }
}

struct ProbeFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

/// Tells the test where the probe is (see the header).
func say(_ word: String) {
    FileHandle.standardOutput.write(Data((word + "\n").utf8))
}

/// The flows whose files are in `folder`: by flow id, its `n` and its steps' files.
func flowsOnDisk(_ folder: URL) throws -> [Int: (n: Int, steps: Set<Int>)] {
    var flows: [Int: (n: Int, steps: Set<Int>)] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
        let parts = name.split(separator: "-")
        guard parts.count == 4, parts[0] == "flow", let n = Int(parts[1]), let id = Int(parts[2]), let step = Int(parts[3])
        else { throw ProbeFailure("unexpected file \(name) in \(folder.path)") }
        flows[id, default: (n, [])].steps.insert(step)
    }
    return flows
}

/// The `n` of every completed flow; throws when a flow left some of its files but not all, or
/// when a flow `n` completed twice: what recovery must never leave.
func completedFlows(in folder: URL) throws -> Set<Int> {
    var completed: Set<Int> = []
    for (id, flow) in try flowsOnDisk(folder).sorted(by: { $0.key < $1.key }) {
        guard flow.steps == Set(1...stepsPerFlow) else {
            throw ProbeFailure("flow \(id) (n \(flow.n)) is half-applied after recovery: its files are steps \(flow.steps.sorted())")
        }
        guard completed.insert(flow.n).inserted else { throw ProbeFailure("flow n \(flow.n) completed twice (again as \(id))") }
    }
    return completed
}

/// The files of flow `n` run as journal flow `flow`: `flow-<n>-<flow>-<step>`.
struct FlowFiles: Sendable {
    let folder: URL
    let n: Int
    let flow: Int

    func revert(_ step: Int) -> RemoveFile {
        RemoveFile(name: "flow-\(n)-\(flow)-\(step)", flow: flow, step: step)
    }

    /// Creates step `step`'s file, empty, in place (FileManager writes a temporary file and
    /// renames it: a kill between the two would leave a stray file).
    func create(_ step: Int) throws {
        let path = folder.appendingPathComponent(revert(step).name).path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { throw ProbeFailure("cannot create \(path): errno \(errno)") }
        close(descriptor)
    }
}

/// What a failing flow's last step throws, by design.
struct PlannedFailure: Error {}

/// The flows `n` that failed in earlier runs (`failed <n>` in the log).
func failedFlows(log path: String) throws -> Set<Int> {
    let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
    return Set(lines.compactMap { $0.hasPrefix("failed ") ? Int($0.dropFirst("failed ".count)) : nil })
}

/// What one run does, as the command line says.
struct ProbeOptions {
    let store: String
    let folder: URL
    let log: String
    let flowCount: Int
    let failEvery: Int
    let revertDelay: Duration
    /// Where the first revert handler of this run in `holdIn` stops for good, for the test's
    /// kill to land there (nil: nowhere, each takes `revertDelay`).
    let hold: Hold?
    /// Whether the handler held is one of the recovery's (else one of a failing flow's rollback).
    let holdInRecovery: Bool

    func fails(_ n: Int) -> Bool { n % failEvery == failEvery / 2 }
}

/// Where a held revert handler stops until the process is killed.
enum Hold: String {
    /// Before it removed the file: the revert's effect has not happened.
    case before
    /// After it removed the file, before it returned: its checkpoint is never written, so a
    /// later recovery runs it again.
    case after
}

func runProbe(_ options: ProbeOptions) async throws {
    let (folder, log) = (options.folder, try AppendLog(path: options.log))
    log.append("run \(getpid())")
    let store = options.store.hasPrefix("postgres://")
        ? try await JobStore.postgres(url: options.store) : try JobStore(path: options.store)
    // Keeps every flow of the test in the journal (each `n` completes once, each failing flow
    // rolls back once or twice, and each kill rolls back at most one more), so that the test
    // reads how each of them ended.
    let manager = TaskFlowManager(undoHistoryLimit: 3 * options.flowCount + 100)
    let flows = DurableFlows(manager: manager, store: store)
    let recovering = Protected(true)
    flows.register(RemoveFile.self, retry: .never) { revert in
        log.append("revert \(revert.flow) \(revert.step)")
        let inRecovery = recovering.withLock { $0 }
        let hold = inRecovery == options.holdInRecovery ? options.hold : nil
        if hold == .before { await holdUntilKilled(saying: inRecovery) }
        try await Task.sleep(for: inRecovery ? options.revertDelay : options.revertDelay / 4)
        let path = folder.appendingPathComponent(revert.name).path
        // Idempotent, and tolerant of a step that never ran: the file may not be there.
        if FileManager.default.fileExists(atPath: path) { try FileManager.default.removeItem(atPath: path) }
        if hold == .after { await holdUntilKilled(saying: inRecovery) }
    }
    say("recovering")
    let recovered = try await flows.recover()
    if let incomplete = recovered.first(where: { !$0.isComplete }) { throw ProbeFailure("recovery: \(incomplete)") }
    log.append("recovered \(recovered.count)")
    recovering.withLock { $0 = false }
    let finished = try completedFlows(in: folder).union(failedFlows(log: options.log))
    say("running")
    var ran = 0
    for n in 0..<options.flowCount where !finished.contains(n) {
        do {
            try await run(n, in: flows, options)
        } catch is PlannedFailure where options.fails(n) {
            log.append("failed \(n)")
        }
        ran += 1
        say("progress \(ran)")
    }
    log.append("done")
    say("done")
}

/// Says where the held revert handler is (`reverting` in a recovery, `rolling back` in a
/// rollback) and waits for the kill that the test sends on hearing it.
func holdUntilKilled(saying inRecovery: Bool) async {
    say(inRecovery ? "reverting" : "rolling back")
    while true { try? await Task.sleep(for: .seconds(3600)) }
}

/// Runs flow `n` to its end.
func run(_ n: Int, in flows: DurableFlows<Void>, _ options: ProbeOptions) async throws {
    try await flows.execute(title: "flow \(n)") { flow in
        let files = FlowFiles(folder: options.folder, n: n, flow: flow.flowID.rawValue)
        // Odd flows create their files at once: a group's children journal side by side, each
        // of them maybe the one that opens the flow's row.
        if n.isMultiple(of: 2) || options.fails(n) {
            for step in 1...stepsPerFlow {
                try await flow.task(title: "file \(step)", revert: files.revert(step)) { _ in
                    try files.create(step)
                    if step == stepsPerFlow, options.fails(n) { throw PlannedFailure() }
                }
            }
        } else {
            try await flow.group(title: "files") { group in
                for step in 1...stepsPerFlow {
                    group.task(title: "file \(step)", revert: files.revert(step)) { _ in try files.create(step) }
                }
            }
        }
    }.value
}

let arguments = CommandLine.arguments
/// HOLD: `none`, or `recovery-` or `rollback-` then `before` or `after`.
let holdWords = arguments.count == 8 ? arguments[7].split(separator: "-").map(String.init) : []
let hold = holdWords.count == 2 ? Hold(rawValue: holdWords[1]) : nil
guard arguments.count == 8, let flowCount = Int(arguments[4]), flowCount > 0, let failEvery = Int(arguments[5]),
    failEvery > 0, let delay = Int(arguments[6]), delay >= 0,
    arguments[7] == "none" || (hold != nil && ["recovery", "rollback"].contains(holdWords[0]))
else {
    FileHandle.standardError.write(Data(
        "usage: TaskFlowDurableCrashProbe STORE FOLDER LOG FLOWS FAIL_EVERY REVERT_DELAY_MS none|{recovery,rollback}-{before,after}\n".utf8))
    exit(2)
}
do {
    try await runProbe(ProbeOptions(
        store: arguments[1], folder: URL(fileURLWithPath: arguments[2]), log: arguments[3], flowCount: flowCount,
        failEvery: failEvery, revertDelay: .milliseconds(delay), hold: hold, holdInRecovery: holdWords.first == "recovery"))
} catch let failure as ProbeFailure {
    FileHandle.standardError.write(Data("TaskFlowDurableCrashProbe: \(failure)\n".utf8))
    exit(3)
} catch {
    FileHandle.standardError.write(Data("TaskFlowDurableCrashProbe: \(error)\n".utf8))
    exit(1)
}
