import ConsoleProtocol
import Foundation
import Logging
import NIOCore
import NIOPosix
import ServiceLifecycle
import TaskFlow
@testable import TaskFlowConsole
import TaskFlowTestSupport
import Testing

/// The console as a user meets it: real sockets, real flows.
@Suite struct ConsoleServerTests {
    @Test func aClientGetsHelloASnapshotThenLiveEvents() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let flow = manager.execute(title: "Import") { flow in try await flow.task(title: "wait", apply: { _ in await gate.wait() }) }
        #expect(await eventually { flow.status.phase == .running })
        let console = try await ConsoleFixture(manager: manager)
        #expect(!console.server.isSubscribed, "nothing is subscribed while nobody watches")

        let client = try await ConsoleClient.connect(path: console.path, client: "test", timeout: .seconds(60))
        #expect(client.hello.title == "Fixture" && client.hello.pid == getpid() && client.hello.protocolVersion == "1.1")
        let snapshot = client.snapshot.manager(origin: .now)
        #expect(snapshot.flows.map(\.info.title) == ["Import"])
        #expect(snapshot.flows.first?.steps.map(\.info.title) == ["wait"])
        #expect(console.server.isSubscribed)

        gate.open()
        let completed = await client.messages.first { message -> FlowStatus? in
            if case .statusChanged(flow.id, let status) = message.flowEvent, status.phase == .completed { status } else { nil }
        }
        #expect(completed != nil)
        await client.close()
        #expect(await eventually { !console.server.isSubscribed }, "the last client leaving unsubscribes")
        await console.stop()
    }

    @Test func cancelCancelsARealFlowAndItsRollbackArrives() async throws {
        let manager = TaskFlowManager()
        let (gate, uploaded) = (Gate(), Gate())
        let flow = manager.execute(title: "Publish") { flow in
            try await flow.task(title: "upload", apply: { _ in }, revert: { _, _ in })
            try await flow.task(title: "wait", apply: { _ in
                uploaded.open()
                await gate.wait()
            })
        }
        // Past its first step: a flow cancelled before it has nothing to revert.
        await uploaded.wait()
        let console = try await ConsoleFixture(manager: manager)
        let client = try await console.connect()

        let reply = try await client.send(.cancel(flow.id))
        #expect(reply.ok)
        gate.open()
        var reverted: [String] = []
        for await message in client.messages {
            if case .stepReverted(_, let step) = message.flowEvent { reverted.append(step.title) }
            if case .statusChanged(_, .cancelled) = message.flowEvent { break }
        }
        #expect(reverted == ["upload"])
        await #expect(throws: CancellationError.self) { try await flow.value }

        let unknown = try await client.send(.cancel(FlowID(99)))
        #expect(!unknown.ok && unknown.message == "unknown flow 99")
        await client.close()
        await console.stop()
    }

    @Test func undoUndoesACompletedFlowAndRefusalsSayWhy() async throws {
        let manager = TaskFlowManager(state: 0)
        let write = manager.execute(title: "Add") { flow in try await flow.update { $0 += 1 } }
        try await write.value
        let gate = Gate()
        let read = manager.execute(title: "Look", access: .read) { _ in await gate.wait() }
        let console = try await ConsoleFixture(manager: manager)
        let client = try await console.connect()
        #expect(client.snapshot.undoable.map(\.core.title) == ["Add"])

        // Refused at once; the read flow then ends, so that the undo can take the write lock.
        let reading = try await client.send(.undo(read.id))
        #expect(reading.message == "flow \(read.id.rawValue) is not undoable: 'Look' is a read flow: it changed nothing, so there is nothing to undo")
        gate.open()
        try await read.value
        let undo = try await client.send(.undo(write.id))
        #expect(undo.ok)
        #expect(manager.state == 0)
        let again = try await client.send(.undo(write.id))
        #expect(!again.ok && again.message == "unknown flow \(write.id.rawValue)", "an undone flow leaves the history")
        let unknown = try await client.send(.undo(FlowID(42)))
        #expect(unknown.message == "unknown flow 42")
        let noQueues = try await client.send(.pauseQueue("Uploads"))
        #expect(noQueues.message == "no job queues")
        let noStore = try await client.send(.storeList(limit: 10))
        #expect(noStore.message == "no job store")
        await client.close()
        await console.stop()
    }

    @Test func aReadOnlyConsoleRefusesCommands() async throws {
        let manager = TaskFlowManager()
        let gate = Gate()
        let flow = manager.execute(title: "Long") { flow in try await flow.task(title: "wait", apply: { _ in await gate.wait() }) }
        let console = try await ConsoleFixture(manager: manager, readOnly: true)
        let client = try await console.connect()
        #expect(client.hello.readOnly)
        let reply = try await client.send(.cancel(flow.id))
        #expect(!reply.ok && reply.message == "read-only console")
        #expect(try await client.send(.cancelAll).message == "read-only console")
        gate.open()
        try await flow.value
        await client.close()
        await console.stop()
    }

    @Test func queueCommandsActOnTheProgramsQueues() async throws {
        let manager = TaskFlowManager()
        let queue = JobQueue(title: "Uploads")
        let console = try await ConsoleFixture(manager: manager, queues: [queue])
        let client = try await console.connect()
        #expect(client.snapshot.queues?.map(\.core.title) == ["Uploads"])
        #expect(try await client.send(.pauseQueue("Uploads")).ok)
        #expect(queue.isPaused)
        let paused = await client.messages.first { message -> Bool? in
            if case .job(let job) = message, case .paused(queue: "Uploads", true) = job.event.core(origin: .now) { true } else { nil }
        }
        #expect(paused == true)
        let handle = queue.add(Job(title: "never") { _ in 1 })
        #expect(try await client.send(.cancelJob(handle.id)).ok)
        await #expect(throws: CancellationError.self) { try await handle.value }
        #expect(try await client.send(.pauseQueue("Downloads")).message == "unknown queue 'Downloads'")
        await client.close()
        await console.stop()
    }

    @Test func anotherMajorVersionIsRefusedNamingBoth() async throws {
        let console = try await ConsoleFixture(manager: TaskFlowManager())
        let raw = try await RawConnection(path: console.path)
        try await raw.sayHello(protocol: "2.0")
        let lines = await raw.lines()
        #expect(lines.count == 2, "hello, then refused, then the connection closes")
        #expect(lines.last?.contains("client speaks protocol 2.0, this program 1.1") == true)
        #expect(!console.server.isSubscribed)
        await console.stop()
    }

    /// A program that cuts the handshake off (its client's hello came too late) says why in a
    /// `bye`, and the client reports that, not "no snapshot".
    @Test func aByeInPlaceOfTheSnapshotIsReportedWithItsReason() async throws {
        let folder = ConsoleFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = "\(folder)/fake.sock"
        let hello = #"{"type":"hello","protocol":"1.1","program":"p","pid":1,"title":"t","started":"2025-01-01T00:00:00Z","readOnly":false}"#
        let bye = #"{"type":"bye","reason":"no hello within 10.0 seconds"}"#
        let fake = try await Greeter.serve(lines: [hello, bye], at: path)
        await #expect(throws: ConsoleClientError.closed("no hello within 10.0 seconds")) {
            try await ConsoleClient.connect(path: path, timeout: .seconds(60))
        }
        try await fake.close()
    }

    @Test func theClientRefusesAProgramOfAnotherMajor() async throws {
        let folder = ConsoleFixture.temporaryFolder()
        let path = "\(folder)/fake.sock"
        let hello = #"{"type":"hello","protocol":"2.0","program":"p","pid":1,"title":"t","started":"2025-01-01T00:00:00Z","readOnly":false}"#
        let fake = try await Greeter.serve(lines: [hello], at: path)
        await #expect(throws: ConsoleClientError.versionMismatch("program speaks protocol 2.0, this client 1.1")) {
            try await ConsoleClient.connect(path: path)
        }
        try await fake.close()
        // A dead program's stale socket: bound, never listened on, left behind.
        let stale = Process()
        stale.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        stale.arguments = ["-c", "import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])", path]
        try stale.run()
        stale.waitUntilExit()
        await #expect(throws: ConsoleClientError.stale(path: path)) { try await ConsoleClient.connect(path: path) }
        await #expect(throws: ConsoleClientError.noConsole(path: "\(folder)/none.sock")) {
            try await ConsoleClient.connect(path: "\(folder)/none.sock")
        }
        #expect(await ConsoleDirectory.list(folder: folder).isEmpty, "a stale socket is skipped")
        try? FileManager.default.removeItem(atPath: folder)
    }

    @Test func unsafeFoldersAreRefusedNamingThePathAndWhy() async throws {
        let base = ConsoleFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let target = "\(base)/real"
        mkdir(target, 0o700)
        symlink(target, "\(base)/link")
        let open = "\(base)/open"
        mkdir(open, 0o700)
        chmod(open, 0o770)
        var cases = [("\(base)/link", "is a symbolic link"), (open, "is writable by group or others (mode 770)")]
        if getuid() == 0 {
            let theirs = "\(base)/theirs"
            mkdir(theirs, 0o700)
            chown(theirs, 65534, 65534)
            cases.append((theirs, "belongs to uid 65534, not to this user (uid 0)"))
        }
        for (folder, reason) in cases {
            let server = ConsoleServer(manager: TaskFlowManager(), path: "\(folder)/x.sock")
            do {
                try await server.run()
                Issue.record("served in \(folder)")
            } catch let error as ConsoleServerError {
                #expect(error.path == folder)
                #expect(error.description.contains(reason), "\(error)")
            }
        }
    }

    @Test func aLiveConsoleAtThePathIsAnErrorAndAStaleOneIsReplaced() async throws {
        let console = try await ConsoleFixture(manager: TaskFlowManager())
        let second = ConsoleServer(manager: TaskFlowManager(), path: console.path)
        await #expect(throws: ConsoleServerError.self) { try await second.run() }
        // A minute for the listing's handshake, as the fixture's clients have (its default is 2 s).
        let listed = await ConsoleDirectory.list(folder: "\(console.folder)/console", timeout: .seconds(60))
        #expect(listed.map(\.hello.title) == ["Fixture"])
        await console.stop()
        #expect(!FileManager.default.fileExists(atPath: console.path), "the socket is removed on the way out")
    }

    @Test func garbageAndAHundredMegabyteLineAreCutOffWhileAnotherClientGoesOn() async throws {
        let manager = TaskFlowManager()
        let console = try await ConsoleFixture(manager: manager)
        let watcher = try await console.connect()

        let garbage = try await RawConnection(path: console.path)
        try await garbage.send("this is not json\n")
        let lines = await garbage.lines()
        #expect(lines.last?.contains(#""reason":"not JSON""#) == true, "\(lines)")

        let unknown = try await RawConnection(path: console.path)
        try await unknown.sayHello()
        try await unknown.send(#"{"type":"teleport"}"# + "\n")
        #expect(await unknown.lines().last?.contains("unknown message type 'teleport'") == true)

        let flood = try await RawConnection(path: console.path)
        let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1 << 20)
        var sent = 0
        while sent < 100, !flood.isClosed {
            // A write fails once the console has closed the connection.
            do { try await flood.channel.writeAndFlush(chunk) } catch { break }
            sent += 1
        }
        #expect(await flood.lines().last?.contains("line longer than 1048576 bytes") == true)
        #expect(sent < 100, "cut off long before 100 MB were read (sent \(sent) MB)")

        let flow = manager.execute(title: "After") { _ in }
        try await flow.value
        let seen = await watcher.messages.first { message -> Bool? in
            if case .statusChanged(flow.id, .completed) = message.flowEvent { true } else { nil }
        }
        #expect(seen == true, "the well-behaved client still receives events")
        await watcher.close()
        await console.stop()
    }

    /// A client that connects and never says hello holds a slot until the handshake's bound,
    /// then learns why it was cut off. Only waits on the event: a loaded machine makes it later.
    @Test func aClientThatSaysNoHelloIsCutOffWithAByeSayingSo() async throws {
        let console = try await ConsoleFixture(manager: TaskFlowManager(), limits: ConsoleLimits(handshakeTimeout: .milliseconds(100)))
        let silent = try await RawConnection(path: console.path)
        let lines = await silent.lines()
        #expect(lines.first?.contains(#""type":"hello""#) == true, "the program greets first: \(lines)")
        #expect(lines.last?.contains(#""type":"bye""#) == true, "\(lines)")
        #expect(lines.last?.contains("no hello within 0.1 seconds") == true, "\(lines)")
        #expect(lines.count == 2, "nothing else, no snapshot: \(lines)")
        await console.stop()
    }

    @Test func aStalledClientNeitherBlocksTheProgramNorGrowsItsBuffersAndIsResyncedWhenItReads() async throws {
        let manager = TaskFlowManager()
        // The stall bound out of the way: under ThreadSanitizer the 2,000 flows take long enough
        // to reach the default 30 s, and this test is about the resync, not the cut-off. The
        // buffer's bound is the default 1 MiB: a client's buffer holds up to it plus one message,
        // and a catch-up snapshot of 100 live flows (sent when a loaded machine made the feed
        // drop events) is ~150 KB, more than a smaller bound's slack.
        let limits = ConsoleLimits.patient(outboundBytes: 1 << 20, stallTimeout: .seconds(3600))
        let console = try await ConsoleFixture(manager: manager, limits: limits)
        let stalled = try await RawConnection(path: console.path, autoRead: false)
        try await stalled.sayHello()
        #expect(await eventually { console.server.isSubscribed })

        // About 20 MB of events, far more than the socket's and the console's buffers hold.
        // The program is not blocked if these flows end at all (no bound on how long they take:
        // a sanitizer on a loaded machine makes that anything).
        for batch in 0..<20 {
            let flows = (0..<100).map { index in
                manager.execute(title: "Flow \(batch)-\(index) with a title long enough to weigh") { flow in
                    for step in 0..<10 { try await flow.task(title: "step \(step)", apply: { _ in }) }
                }
            }
            for flow in flows { try await flow.value }
            let outbound = await console.server.outboundBytes()
            #expect(outbound.allSatisfy { $0 <= 2 * limits.outboundBytes }, "buffers stay bounded: \(outbound)")
        }

        stalled.channel.setOption(.autoRead, value: true).whenComplete { _ in stalled.channel.read() }
        // Bounded, so that a lost resync fails the test instead of hanging it.
        let reading = Task { await stalled.lines { $0.contains(#""missed""#) }.last }
        let bound = Task {
            try await Task.sleep(for: .seconds(120))
            stalled.channel.close(promise: nil)
        }
        let resync = await reading.value
        bound.cancel()
        let snapshot = try #require(resync.flatMap { try? MessageCoding.serverMessage(Array($0.utf8)) }?.snapshot)
        #expect((snapshot.missed ?? 0) > 0)
        await console.stop()
    }

    @Test func aClientThatStopsReadingPastTheStallBoundIsCutOffWhileTheProgramGoesOn() async throws {
        let manager = TaskFlowManager()
        let limits = ConsoleLimits.patient(outboundBytes: 16 << 10, stallTimeout: .milliseconds(200))
        let console = try await ConsoleFixture(manager: manager, limits: limits)
        let stalled = try await RawConnection(path: console.path, autoRead: false)
        try await stalled.sayHello()
        #expect(await eventually { console.server.isSubscribed })
        // Flows until the client's buffer fills and the bound runs out: the console cuts it off.
        // Bounded by time, not by a count of flows: when the console's feed falls behind (a
        // loaded machine), the client gets resync snapshots at most ten a second instead of
        // every event, and the socket's buffers take tens of seconds to fill.
        var flows = 0
        let giveUp = ContinuousClock.now + .seconds(180)
        while !stalled.isClosed, ContinuousClock.now < giveUp {
            try await manager.execute(title: "Flow \(flows) with a title long enough to weigh") { flow in
                for step in 0..<10 { try await flow.task(title: "step \(step)", apply: { _ in }) }
            }.value
            flows += 1
        }
        #expect(stalled.isClosed, "cut off after \(flows) flows")
        #expect(await eventually { !console.server.isSubscribed }, "its subscription ended with it")
        await console.stop()
    }

    @Test func aGracefulShutdownSaysByeAndRemovesTheSocket() async throws {
        let folder = ConsoleFixture.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let server = ConsoleServer(manager: TaskFlowManager(), path: "\(folder)/s.sock", title: "Grace", limits: .patient())
        let group = ServiceGroup(services: [server], logger: Logger(label: "test.group"))
        let running = Task { try await group.run() }
        #expect(await eventually { server.isListening })
        let client = try await ConsoleClient.connect(path: server.path, timeout: .seconds(60))

        await group.triggerGracefulShutdown()
        let bye = await client.messages.first { $0.bye }
        #expect(bye?.reason == "the program's console is shutting down")
        try await running.value
        #expect(!FileManager.default.fileExists(atPath: server.path))
    }

    @Test func anotherUserIsDisconnectedBeforeAnythingIsSent() async throws {
        guard getuid() == 0 else { return print("skipped: needs root to connect as another user") }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
            FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
        else { return print("skipped: needs setpriv and python3") }
        let console = try await ConsoleFixture(manager: TaskFlowManager())
        // Opened on purpose, past the folder's and the socket's modes, to reach the uid check.
        chmod(console.folder, 0o711)
        chmod("\(console.folder)/console", 0o711)
        chmod(console.path, 0o666)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); s.settimeout(10)
            data = b""
            while True:
                chunk = s.recv(4096)
                if not chunk: break
                data += chunk
            print(len(data))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script, console.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = await Task.detached { output.fileHandleForReading.readDataToEndOfFile() }.value
        process.waitUntilExit()
        #expect(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "0")
        await console.stop()
    }
}

/// A fake program that says given lines when a client connects.
private final class Greeter: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    let line: String

    init(line: String) { self.line = line }

    /// A fake program on `path` that says `lines`, each ended by a newline, to every client;
    /// close the returned channel to stop it.
    static func serve(lines: [String], at path: String) async throws -> any Channel {
        let text = lines.map { $0 + "\n" }.joined()
        return try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Greeter(line: text))
                }
            }
            .bind(unixDomainSocketPath: path).get()
    }

    func channelActive(context: ChannelHandlerContext) {
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(string: line)), promise: nil)
        context.fireChannelActive()
    }
}
