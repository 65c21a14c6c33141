import ConsoleProtocol
import Foundation
import Logging
import Synchronization
import TaskFlow
import TaskFlowConsole

/// `console` section: what serving a program on its console costs the program. The same no-op
/// write-flow steps are timed on a manager with no console, with a console nobody watches, with
/// one client that reads, and with one that stopped reading; the variants run interleaved, five
/// times, so that a drift in the machine's load touches them alike. Then the latency from a
/// step's start to its event reaching a client, against the dashboard's frame (33 ms).
@concurrent
func runConsoleBenchmarks() async {
    var table = ResultTable(title: "console (\(buildConfiguration), one run; the no-console step measured in the same run)")
    do {
        try await benchmarkConsoleCost(&table)
        try await benchmarkStalledClientMemory(&table)
        try await benchmarkConsoleLatency(&table)
    } catch {
        print("console benchmarks stopped early: \(error)")
    }
    print("")
    BenchmarkReport.publish(table)
    print("")
}

/// Who watches the manager while its steps are timed.
private enum Watchers: CaseIterable {
    case noConsole, consoleNoClient, readingClient, stalledClient

    var label: String {
        switch self {
        case .noConsole: "no console"
        case .consoleNoClient: "console, no client"
        case .readingClient: "console, 1 client reading"
        case .stalledClient: "console, 1 client that stopped reading"
        }
    }
}

private func benchmarkConsoleCost(_ table: inout ResultTable) async throws {
    progress("console: step cost")
    let steps = CoreWorkload.steps
    for watchers in Watchers.allCases { _ = try await timeWatchedSteps(steps / 10, watchers) } // warm-up
    var samples: [Watchers: [Double]] = [:]
    for _ in 0..<5 {
        for watchers in Watchers.allCases {
            samples[watchers, default: []].append(try await timeWatchedSteps(steps, watchers))
        }
    }
    let baseline = Samples(samples[.noConsole] ?? []).median
    for (watchers, target) in [(Watchers.consoleNoClient, 1.05), (.readingClient, 1.25), (.stalledClient, 1.25)] {
        let value = Samples(samples[watchers] ?? []).median
        table.add(
            "no-op flow.task step, \(watchers.label)", taskFlow: formatNanoseconds(value),
            baseline: formatNanoseconds(baseline) + " (no console)", ratio: formatRatio(value / baseline),
            target: "≤ \(format(target, digits: 2))×", verdict: verdict(value / baseline <= target))
    }
}

/// The program's memory while one client has stopped reading: six flows of no-op steps on one
/// served manager, the live heap (``MemoryProbe``: bytes allocated and not freed) and the
/// resident set read after each. Flat: the heap after flow 6 is within 2 MB of the heap after
/// flow 1 (the resident set is printed too; glibc keeps freed arenas, so it is noisier).
private func benchmarkStalledClientMemory(_ table: inout ResultTable) async throws {
    progress("console: memory with a stalled client")
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    guard let session = try await ConsoleSession(manager: manager, watchers: .stalledClient) else { return }
    var heap: [Int] = []
    var resident: [Int] = []
    for _ in 0..<6 {
        try await manager.execute(title: "no-op steps", access: .write) { flow in
            for _ in 0..<CoreWorkload.steps { try await NoOpStep.taskWithRevert.run(in: flow) }
        }.value
        heap.append(MemoryProbe.allocatedBytes() ?? 0)
        resident.append(residentBytes())
    }
    await session.stop()
    print("  after each of 6 flows of \(CoreWorkload.steps) steps, heap: " + heap.map { formatBytes(Double($0)) }.joined(separator: ", "))
    print("  resident: " + resident.map { formatBytes(Double($0)) }.joined(separator: ", "))
    let growth = heap[5] - heap[0]
    table.add(
        "live heap, flows 2–6 (\(5 * CoreWorkload.steps * 2) events) with a stalled client", taskFlow: formatBytes(Double(growth)),
        baseline: formatBytes(Double(heap[0])) + " after flow 1", ratio: "—", target: "flat (< 2 MB)",
        verdict: verdict(growth < 2 << 20))
}

/// Nanoseconds per step of one write flow of `count` no-op steps, the manager watched as
/// `watchers` says.
private func timeWatchedSteps(_ count: Int, _ watchers: Watchers) async throws -> Double {
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    let session = try await ConsoleSession(manager: manager, watchers: watchers)
    let interval = try await manager.execute(title: "no-op steps", access: .write) { flow in
        let start = ContinuousClock.now
        for _ in 0..<count { try await NoOpStep.taskWithRevert.run(in: flow) }
        return Interval(start: start, end: .now)
    }.value
    await session?.stop()
    return nanoseconds(interval.end - interval.start) / Double(count)
}

private func benchmarkConsoleLatency(_ table: inout ResultTable) async throws {
    progress("console: event latency")
    let manager = TaskFlowManager(undoHistoryLimit: 0)
    guard let session = try await ConsoleSession(manager: manager, watchers: .readingClient) else { return }
    let flows = 300
    var latencies: [Double] = []
    for index in 0..<flows {
        let queued = ContinuousClock.now
        let flow = manager.execute(title: "probe \(index)", access: .read) { _ in }
        try await flow.value
        guard let seen = await session.arrival(of: flow.id) else {
            throw BenchmarkFailure(description: "the client never saw flow \(flow.id)")
        }
        latencies.append(nanoseconds(seen - queued))
    }
    await session.stop()
    let samples = Samples(latencies)
    let frame = 33_000_000.0
    table.add(
        "flow queued → its event at an attached client, p95 (\(flows) flows)", taskFlow: formatNanoseconds(samples.percentile(95)),
        baseline: "33 ms (1 frame)", ratio: formatRatio(samples.percentile(95) / frame), target: "≤ 2 frames",
        verdict: verdict(samples.percentile(95) <= 2 * frame))
}

/// A console serving a manager for one measurement, and its clients.
private final class ConsoleSession: Sendable {
    let server: ConsoleServer
    let serving: Task<Void, any Error>
    let client: ConsoleClient?
    let reader: Task<Void, Never>?
    let stalled: Int32?
    let arrivals = ArrivalLog()

    /// Nil for ``Watchers/noConsole``.
    init?<State>(manager: TaskFlowManager<State>, watchers: Watchers) async throws {
        guard watchers != .noConsole else { return nil }
        let folder = FileManager.default.temporaryDirectory.appending(path: "taskflow-bench-\(UUID().uuidString)")
        // Warnings only: the console's info lines (clients attached) would drown the figures.
        var logger = Logger(label: "taskflow.console")
        logger.logLevel = .warning
        server = ConsoleServer(manager: manager, path: folder.appending(path: "console.sock").path, logger: logger)
        serving = Task { [server] in try await server.run() }
        while !server.isListening { try await Task.sleep(for: .milliseconds(1)) }
        switch watchers {
        case .readingClient:
            let client = try await ConsoleClient.connect(path: server.path, client: "benchmark")
            self.client = client
            reader = Task { [arrivals] in
                for await message in client.messages {
                    if case .flow(let flow) = message, case .flowQueued(let info) = flow.event.core { arrivals.seen(info.id) }
                }
            }
            stalled = nil
        case .stalledClient:
            (client, reader) = (nil, nil)
            stalled = try StalledClient.connect(path: server.path)
        default:
            (client, reader, stalled) = (nil, nil, nil)
        }
        // Attached clients subscribe the manager during the handshake: wait until they have.
        while watchers != .consoleNoClient, !server.isSubscribed { try await Task.sleep(for: .milliseconds(1)) }
    }

    /// When the client saw flow `id` queued, waiting for it if need be.
    func arrival(of id: FlowID) async -> ContinuousClock.Instant? {
        for _ in 0..<10_000 {
            if let instant = arrivals.instant(of: id) { return instant }
            try? await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    func stop() async {
        await client?.close()
        reader?.cancel()
        if let stalled { close(stalled) }
        serving.cancel()
        _ = await serving.result
        try? FileManager.default.removeItem(atPath: (server.path as NSString).deletingLastPathComponent)
    }
}

/// When each flow's `flowQueued` reached the client.
private final class ArrivalLog: Sendable {
    private let seenAt = Mutex<[FlowID: ContinuousClock.Instant]>([:])

    func seen(_ id: FlowID) { seenAt.withLock { $0[id] = .now } }
    func instant(of id: FlowID) -> ContinuousClock.Instant? { seenAt.withLock { $0[id] } }
}

/// A client that says hello and then never reads again: the console must neither wait for it
/// nor buffer for it without bound. A raw socket, because the console's own client always reads.
private enum StalledClient {
    static func connect(path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchmarkFailure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { bytes in
            bytes.copyBytes(from: path.utf8.prefix(bytes.count - 1))
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else { throw BenchmarkFailure(description: "connect: \(String(cString: strerror(errno)))") }
        let hello = try MessageCoding.line(ClientMessage.hello(ClientHello(client: "stalled benchmark client")))
        _ = hello.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        return fd
    }
}

/// The process's resident set (`VmRSS`), in bytes.
private func residentBytes() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "")
    else { return 0 }
    return kilobytes * 1024
}
