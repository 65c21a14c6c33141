import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport
import Testing

/// A real crash of durable flows: a process running 1,000 durable write flows, each creating
/// three files (one after another, or as a group's children; one in 100 fails after its last
/// file and rolls back), is killed with SIGKILL at moments chosen at random — after a random
/// number of flows, inside a revert handler of its recovery or of a rollback (before or after
/// its effect), right after its start — each kill sent on what the probe said it did, never
/// after a duration; restarted each time, and finally run to the end. A few kills by default; `TASKFLOW_STORE_STRESS=1` makes it 24 (what
/// `.ci/run` does). On SQLite, and on PostgreSQL when the suite has a test server (about 10 s
/// there in a debug build: most of it the last run's flows, four round trips each).
@Suite("Durable flows: crash recovery", .serialized)
struct DurableCrashTests {
    static let flowCount = 1_000
    /// One flow in this many fails once its files are created (see the probe).
    static let failEvery = 100
    static var kills: Int { ProcessInfo.processInfo.environment["TASKFLOW_STORE_STRESS"] == "1" ? 24 : 4 }
    /// How long each revert handler of the probe's recovery takes, in milliseconds (a quarter of
    /// it in a failing flow's rollback), those not held for a kill.
    static let revertDelay = 40

    @Test(
        "kill -9 mid-flow and mid-recovery: every flow ends with all of its files or none; no revert runs again after its checkpoint",
        arguments: StoreFactory.durable)
    func killRepeatedly(factory: StoreFactory) async throws {
        let place = try await factory.makePlace()
        let probe = try DurableProbe(store: try #require(place.address))
        var generator = SeededGenerator(seed: 0xD0_7AB1E)
        var killedWithFlowsLeft = 0
        for kill in 0..<Self.kills {
            let moment = KillMoment.allCases[kill % KillMoment.allCases.count]
            // Each kill lands on what the probe said it did (never after a duration, which a
            // loaded machine would stretch past the end of the work).
            let hold = moment.holds ? [Hold.before, .after].randomElement(using: &generator)! : nil  // Two elements.
            let (process, _) = try await probe.start(
                until: moment.lines(using: &generator), hold: hold, inRecovery: moment == .inRevert, killing: true)
            let status = try await process.exitStatus()
            // A probe that found the work done may end by itself before the kill lands.
            #expect(status == SIGKILL || status == 0, "status \(status) at kill \(kill) (\(moment))")
            if status == 0 { break }
            killedWithFlowsLeft += 1
        }
        let (last, _) = try await probe.start(until: ["running"], hold: nil)
        #expect(try await last.exitStatus() == 0)

        let store = try await place.open()
        let journal = try await store.durableFlows(limit: 10 * Self.flowCount)
        let rolledBack = journal.filter { $0.state == .rolledBack }
        try checkFiles(journal, onDisk: probe.filesByFlow())
        let runs = try probe.runs()
        #expect(runs.last?.finished == true, "the last run ran every flow")
        let failed = runs.reduce(into: Set<Int>()) { $0.formUnion($1.failed) }
        #expect(failed == Set((0..<Self.flowCount).filter(Self.fails)), "each failing flow failed")
        try await checkReverts(runs, rolledBack: rolledBack, store: store)
        #expect(killedWithFlowsLeft >= Self.kills / 2, "\(killedWithFlowsLeft) of \(Self.kills) kills came before the flows were done")
        #expect(!rolledBack.isEmpty, "no kill caught a flow under way: the test proved nothing")
        #expect(
            runs.dropLast().contains { !$0.reverts.isEmpty && !$0.recovered },
            "no kill landed inside a recovery's reverts: the test proved nothing")
        #expect(runs.dropLast().contains { $0.endedInRollback }, "no kill landed inside a rollback: the test proved nothing")
    }

    /// Checks the files the flows left against how the journal says they ended: every flow
    /// ended; each completed once (but those that fail), with all of its files; a rolled-back
    /// flow left none.
    private func checkFiles(_ journal: [DurableFlowInfo], onDisk: [Int: FlowFiles]) {
        let completed = journal.filter { $0.state == .completed }
        let unfinished = journal.filter { $0.state != .completed && $0.state != .rolledBack }
        #expect(unfinished.isEmpty, "every flow ended: \(unfinished.map { "\($0.id) \($0.storedState)" })")
        let succeeding = (0..<Self.flowCount).filter { !Self.fails($0) }
        #expect(Set(completed.map(\.title)) == Set(succeeding.map { "flow \($0)" }), "each flow completed, but the failing ones")
        #expect(completed.count == succeeding.count, "each flow completed once")
        for flow in completed {
            #expect(onDisk[flow.id.rawValue].map { "flow \($0.n)" } == flow.title, "\(flow.title) (\(flow.id)) has files")
            #expect(onDisk[flow.id.rawValue]?.steps == [1, 2, 3], "\(flow.title) (\(flow.id)) has all of its files")
        }
        for flow in journal where flow.state == .rolledBack {
            #expect(onDisk[flow.id.rawValue] == nil, "rolled back \(flow.title) (\(flow.id)) left no file")
        }
        #expect(Set(onDisk.keys).isSubset(of: Set(completed.map(\.id.rawValue))), "no file of a flow the journal does not show completed")
    }

    /// Checks the probe's revert log against the journal: every revert of a rolled-back flow ran
    /// (last journaled first), none of a completed flow did, and none ran again after its
    /// checkpoint.
    ///
    /// Reverts run one at a time (the probe runs one flow at a time, recovery rolls flows back
    /// one after another, and the flows that fail create their files one after another), each
    /// logged as its handler starts and checkpointed once it returned. So a revert may run
    /// again only when a kill came between its log line and its checkpoint: then it is the last
    /// revert its run logged, and a later recovery runs it again. Any other repeat is a revert
    /// run after its checkpoint.
    private func checkReverts(
        _ runs: [ProbeRun], rolledBack: [DurableFlowInfo], store: JobStore
    ) async throws {
        // The journal's number of each step of each rolled-back flow (a group's children are
        // numbered as they journal, not as the probe names them), by the probe's step.
        var numbers: [Int: [Int: Int]] = [:]
        for flow in rolledBack {
            let steps = try #require(try await store.durableFlow(flow.id)).steps
            #expect(steps.allSatisfy { $0.state == "reverted" }, "\(flow.id): every step checkpointed")
            for step in steps {
                let probeStep = try #require(Int(step.title.dropFirst("file ".count)), "step title \(step.title)")
                numbers[flow.id.rawValue, default: [:]][probeStep] = step.number
            }
        }
        var seen: [RevertLine: Int] = [:]
        for (index, run) in runs.enumerated() {
            #expect(Set(run.reverts).count == run.reverts.count, "run \(index) ran a revert twice: \(run.reverts)")
            for revert in run.reverts {
                #expect(numbers[revert.flow]?[revert.step] != nil, "\(revert) ran in run \(index): not a step of a rolled-back flow")
                if let earlier = seen[revert] {
                    #expect(
                        runs[earlier].reverts.last == revert,
                        "\(revert) ran in run \(earlier) and again in run \(index), though run \(earlier) went on after it")
                }
                seen[revert] = index
            }
            for (flow, reverts) in Dictionary(grouping: run.reverts, by: \.flow) {
                let order = reverts.compactMap { numbers[flow]?[$0.step] }
                #expect(order == order.sorted(by: >), "run \(index) reverted flow \(flow) last journaled first: \(reverts)")
            }
        }
        for (flow, steps) in numbers {
            let logged = Set(seen.keys.filter { $0.flow == flow }.map(\.step))
            #expect(logged == Set(steps.keys), "flow \(flow): every journaled step's revert ran")
        }
    }

    /// Whether flow `n` fails by design (the probe's rule).
    static func fails(_ n: Int) -> Bool { n % failEvery == failEvery / 2 }
}

/// When a kill comes: on which line of the probe's. In this order, so that each kill in a
/// revert follows one that left a flow to recover: a kill in a rollback leaves its flow rolling
/// back, and the next kill lands in the revert handler recovering it.
private enum KillMoment: CaseIterable, CustomStringConvertible {
    /// While it runs flows: after a random number of them, up to a share of all, so that every
    /// kill leaves flows to run.
    case midFlow
    /// In the rollback of the next flow that fails (if one is left), held in a revert handler.
    case inRollback
    /// In the first revert handler of its recovery, held there (or, with nothing to recover, as
    /// soon as it runs flows).
    case inRevert
    /// Right after its start: before, or in, its recovery's take-over.
    case atStart

    /// The lines to kill on; `done` where the work may be over first.
    func lines(using generator: inout SeededGenerator) -> Set<String> {
        switch self {
        case .midFlow:
            let share = DurableCrashTests.flowCount / (DurableCrashTests.kills + 1)
            return ["progress \(Int.random(in: 1...share, using: &generator))", "done"]
        case .inRevert: return ["reverting", "running"]
        case .atStart: return ["recovering"]
        case .inRollback: return ["rolling back", "done"]
        }
    }

    /// Whether the run holds its first revert handler for the kill.
    var holds: Bool { self == .inRollback || self == .inRevert }

    var description: String {
        switch self {
        case .midFlow: "mid-flow"
        case .inRevert: "in a revert"
        case .atStart: "at start"
        case .inRollback: "in a rollback"
        }
    }
}

/// Where the probe holds its first revert handler for the kill (see the probe).
private enum Hold: String {
    case before
    case after
}

/// One line `revert <flow> <step>` of the probe's log.
private struct RevertLine: Hashable, CustomStringConvertible {
    let flow: Int
    let step: Int

    var description: String { "revert of flow \(flow) step \(step)" }
}

/// One run of the probe, as its log tells it.
private struct ProbeRun {
    var reverts: [RevertLine] = []
    /// Whether recover() returned.
    var recovered = false
    /// The flows `n` that failed by design in it, rolled back.
    var failed: Set<Int> = []
    /// Whether its last line is a revert of a rollback after recover() (a kill cut it short).
    var endedInRollback = false
    /// Whether it ran every flow.
    var finished = false
}

/// The `TaskFlowDurableCrashProbe` on one store, with its folder of files and its log.
private struct DurableProbe {
    let store: String
    let folder: URL
    let log: URL

    init(store: String) throws {
        self.store = store
        let directory = try temporaryDirectory()
        folder = directory.appendingPathComponent("files")
        log = directory.appendingPathComponent("probe.log")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    /// Starts the probe, holding the first revert handler of its recovery (`inRecovery`) or of
    /// a failing flow's rollback as `hold` says, and returns once it printed one of `lines` —
    /// killed on the spot when `killing`.
    func start(
        until lines: Set<String>, hold: Hold?, inRecovery: Bool = false, killing: Bool = false
    ) async throws -> (probe: CrashProbe, line: String) {
        try await CrashProbe.launch(
            "TaskFlowDurableCrashProbe",
            arguments: [
                store, folder.path, log.path, String(DurableCrashTests.flowCount), String(DurableCrashTests.failEvery),
                String(DurableCrashTests.revertDelay), hold.map { "\(inRecovery ? "recovery" : "rollback")-\($0.rawValue)" } ?? "none",
            ],
            until: lines, killing: killing)
    }

    /// The files in the folder, by flow id: the flow's `n` and its steps (`flow-<n>-<id>-<step>`).
    func filesByFlow() throws -> [Int: FlowFiles] {
        var flows: [Int: FlowFiles] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let parts = name.split(separator: "-").compactMap { Int($0) }
            try #require(parts.count == 3 && name.hasPrefix("flow-"), "unexpected file \(name)")
            flows[parts[1], default: FlowFiles(n: parts[0])].steps.insert(parts[2])
        }
        return flows
    }

    /// The log, one entry per run, oldest first.
    func runs() throws -> [ProbeRun] {
        var runs: [ProbeRun] = []
        for line in try String(contentsOf: log, encoding: .utf8).split(separator: "\n") {
            let words = line.split(separator: " ")
            // Every run's first line is `run`.
            try #require(words.first == "run" || !runs.isEmpty, "the log does not start with a run: \(line)")
            if words.first != "run" { runs[runs.count - 1].endedInRollback = false }
            switch words.first {
            case "run": runs.append(ProbeRun())
            case "revert":
                let numbers = words.dropFirst().compactMap { Int($0) }
                try #require(numbers.count == 2, "malformed log line \(line)")
                runs[runs.count - 1].reverts.append(RevertLine(flow: numbers[0], step: numbers[1]))
                runs[runs.count - 1].endedInRollback = runs[runs.count - 1].recovered
            case "recovered": runs[runs.count - 1].recovered = true
            case "failed":
                try #require(words.count == 2, "malformed log line \(line)")
                runs[runs.count - 1].failed.insert(try #require(Int(words[1]), "malformed log line \(line)"))
            case "done": runs[runs.count - 1].finished = true
            default: Issue.record("malformed log line \(line)")
            }
        }
        return runs
    }
}

/// One flow's files.
private struct FlowFiles: Equatable {
    let n: Int
    var steps: Set<Int> = []
}
