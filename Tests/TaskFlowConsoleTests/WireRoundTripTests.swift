import ConsoleProtocol
import Foundation
import TaskFlow
import Testing

/// Every core value a dashboard shows survives the wire: encoded as a protocol line and decoded,
/// it describes itself exactly as the original did.
@Suite struct WireRoundTripTests {
    static let step = StepInfo(id: StepID(4), parent: StepID(2), title: "Upload \"photo\"\nnext", kind: .task)
    static let top = StepInfo(id: StepID(1), parent: nil, title: "Plan", kind: .main)
    static let info = FlowInfo(id: FlowID(7), title: "Import books", access: .write)
    static let failure = RevertFailure(step: step, error: RemoteError("disk full"))

    static let statuses: [FlowStatus] = [
        .queued, .waiting, .running, .cancelling, .rollingBack(.cancelled), .rollingBack(.failed(RemoteError("HTTP 409"))),
        .rollingBack(.undo), .completed, .cancelled, .failed(RemoteError("HTTP 500")),
        .rollbackIncomplete(.failed(RemoteError("timeout")), [failure, failure]), .rollbackIncomplete(.undo, [failure]),
        .undoing, .undone,
    ]

    static var events: [FlowEvent] {
        let lock = LockEvent(holder: info, change: .admitted, mode: .write(FlowID(7)), waiting: 2)
        return [.flowQueued(info), .stepStarted(FlowID(7), step), .stepFinished(FlowID(7), StepID(4), .completed),
            .stepFinished(FlowID(7), StepID(4), .cancelled), .stepFinished(FlowID(7), StepID(4), .failed("nope")),
            .progress(FlowID(7), StepID(4), 0.4375),
            .stepRetrying(FlowID(7), StepRetry(title: "Upload", nextAttempt: 2, maxAttempts: 3, delay: .milliseconds(400), error: "E")),
            .stepReverting(FlowID(7), top), .stepReverted(FlowID(7), step), .revertFailed(FlowID(7), step, "gone"),
            .lock(lock), .lock(LockEvent(holder: info, change: .enqueued, mode: .read(count: 3), waiting: 1)),
            .lock(LockEvent(holder: info, change: .released, mode: .idle, waiting: 0)),
            .lock(LockEvent(holder: info, change: .withdrawn, mode: .idle, waiting: 0)), .undoExpired(FlowID(7))]
            + statuses.map { .statusChanged(FlowID(7), $0) }
    }

    @Test(arguments: events.indices) func flowEventsRoundTrip(index: Int) throws {
        let event = Self.events[index]
        let message = try #require(roundTrip(.flow(FlowMessage(time: 1.5, event: event))).flow)
        #expect(message.time == 1.5)
        #expect(String(describing: message.event.core) == String(describing: event))
        #expect(message.event.core.flowID == event.flowID)
    }

    @Test func statusesKeepTheirDescriptionsAndPhases() throws {
        for status in Self.statuses {
            let back = try decoded(WireFlowStatus(status))
            #expect(back.core.description == status.description)
            #expect(back.core.phase == status.phase)
        }
    }

    @Test func aSnapshotRoundTripsWithItsTimesOnTheClientsClock() throws {
        let origin = ContinuousClock.now
        let steps = [
            StepSnapshot(info: Self.top, status: .completed, progress: nil, started: origin - .seconds(90), ended: origin - .milliseconds(1500)),
            StepSnapshot(info: Self.step, status: .revertFailed("gone"), progress: 0.25, started: origin + .milliseconds(250), ended: origin + .seconds(2)),
            StepSnapshot(info: Self.step, status: .failed("x"), progress: nil),
        ]
        let other = FlowInfo(id: FlowID(8), title: "Read", access: .read)
        let manager = ManagerSnapshot(
            flows: [FlowSnapshot(info: Self.info, status: .rollingBack(.cancelled), currentStep: Self.step, progress: 0.5, steps: steps,
                                 submitted: origin - .seconds(120)),
                    FlowSnapshot(info: other, status: .waiting, currentStep: nil, progress: nil)],
            lock: LockSnapshot(mode: .write(FlowID(7)), holders: [Self.info], queue: [other]), undoable: [Self.info])
        let message = SnapshotMessage(
            time: 3, manager: manager, origin: origin,
            queues: [QueueDescription(title: "Uploads", maxConcurrent: 3, isBlocking: false, isPaused: true)], store: "jobs.sqlite", missed: 12)
        let back = try #require(roundTrip(.snapshot(message)).snapshot)
        #expect(String(describing: back.manager(origin: origin)) == String(describing: manager))
        #expect(back.manager(origin: origin).flows.map(\.steps) == manager.flows.map(\.steps))
        #expect(back.queues?.map(\.core) == [QueueDescription(title: "Uploads", maxConcurrent: 3, isPaused: true)])
        #expect(back.store == "jobs.sqlite" && back.missed == 12 && back.time == 3)

        // Another process's clock: every time keeps its distance from the feed's origin.
        let theirs = origin + .seconds(1000)
        let seen = back.manager(origin: theirs).flows
        #expect(seen.map { $0.submitted.map { $0 - theirs } } == [.seconds(-120), nil])
        #expect(seen[0].steps.map { $0.started.map { $0 - theirs } } == [.seconds(-90), .milliseconds(250), nil])
        #expect(seen[0].steps.map { $0.ended.map { $0 - theirs } } == [.milliseconds(-1500), .seconds(2), nil])
    }

    /// A program of protocol 1.0 sends no times; a broken or hostile one may send any number.
    @Test func aSnapshotWithoutTimesOrWithTimesOutOfRangeDecodes() throws {
        let origin = ContinuousClock.now
        let step = StepSnapshot(info: Self.step, status: .running, progress: nil)
        func line(submitted: ContinuousClock.Instant?) throws -> String {
            let flow = FlowSnapshot(info: Self.info, status: .running, currentStep: nil, progress: nil, steps: [step], submitted: submitted)
            let manager = ManagerSnapshot(flows: [flow], lock: LockSnapshot(mode: .idle, holders: [], queue: []), undoable: [])
            return String(decoding: try MessageCoding.line(ServerMessage.snapshot(SnapshotMessage(time: 1, manager: manager, origin: origin))), as: UTF8.self)
        }
        func flow(_ line: String) throws -> FlowSnapshot? {
            try MessageCoding.serverMessage(Data(line.utf8).dropLast()).snapshot?.manager(origin: origin).flows.first
        }

        let older = try line(submitted: nil)
        #expect(!older.contains("submitted") && !older.contains("started") && !older.contains("ended"), "\(older)")
        let untimed = try #require(try flow(older))
        #expect(untimed.submitted == nil && untimed.steps.map(\.started) == [nil])

        let timed = try line(submitted: origin - .seconds(120))
        #expect(timed.contains(#""submitted":-120"#), "\(timed)")
        let far = try #require(try flow(timed.replacingOccurrences(of: #""submitted":-120"#, with: #""submitted":1e300"#))?.submitted)
        #expect(far - origin > .seconds(86_400 * 365 * 99), "brought within a century, not a crash")
    }

    /// What a broken or hostile peer may send as a duration or a date is brought within reach
    /// before the screens do arithmetic on it (1e300 seconds stopped the client).
    @Test func durationsAndDatesOutOfReachAreBroughtWithinIt() throws {
        let longest = try JSONDecoder().decode(WireDuration.self, from: Data(#"{"seconds":9223372036854775807,"attoseconds":0}"#.utf8))
        #expect(longest.core > .seconds(86_400 * 365 * 99) && longest.core < .seconds(86_400 * 366 * 100))
        let far = Date(wireTimestamp: 1e300)
        #expect(Duration.seconds(far.timeIntervalSince(Date())) > .zero, "a date a Duration can hold")
        #expect(Date(wireTimestamp: .nan) == Date(timeIntervalSince1970: 0))
    }

    @Test func jobEventsRoundTripWithTheirInstantsOnTheClientsClock() throws {
        let origin = ContinuousClock.now
        let job = JobInfo(id: JobID(9), title: "Fetch", queue: "Uploads", priority: .high, dependencies: [JobID(3), JobID(4)], maxAttempts: 3)
        let events: [JobEvent] = [
            .added(job), .started(JobID(9), attempt: 2), .progress(JobID(9), 0.5),
            .attemptFailed(JobID(9), attempt: 1, maxAttempts: 3, error: "E", nextDelay: .milliseconds(250)),
            .finished(JobID(9), .succeeded), .finished(JobID(9), .failed("no")), .finished(JobID(9), .cancelled),
            .paused(queue: "Uploads", true), .paused(queue: "Uploads", false),
        ]
        // The client's clock: its origin is elsewhere, and a retry's instant moves with it.
        let clientOrigin = origin + .seconds(100)
        for event in events {
            let message = try #require(roundTrip(.job(JobMessage(time: 2, event: WireJobEvent(event, origin: origin)))).job)
            #expect(String(describing: message.event.core(origin: clientOrigin)) == String(describing: event))
        }
        let retrying = WireJobStatus(.retrying(attempt: 2, at: origin + .seconds(5)), origin: origin)
        #expect(try decoded(retrying).core(origin: clientOrigin) == .retrying(attempt: 2, at: clientOrigin + .seconds(5)))
        #expect(try decoded(WireJobStatus(.waiting, origin: origin)).core(origin: origin) == .waiting)
        #expect(try decoded(WireJobStatus(.running, origin: origin)).core(origin: origin) == .running)
    }

    @Test func theOtherMessagesRoundTrip() throws {
        let hello = ServerHello(program: "importer", pid: 42, title: "Importer", started: Date(timeIntervalSince1970: 1_700_000_000.125), readOnly: true)
        let back = try #require(roundTrip(.hello(hello)).hello)
        #expect(back == hello)
        let reply = try #require(roundTrip(.reply(ReplyMessage(id: 3, ok: false, message: "unknown flow 7"))).reply)
        #expect(reply.id == 3 && !reply.ok && reply.message == "unknown flow 7")
        let bye = try #require(roundTrip(.bye(ByeMessage(reason: "shutting down"))).bye)
        #expect(bye.reason == "shutting down")
        let refused = try #require(roundTrip(.refused(RefusedMessage(reason: "r"))).refused)
        #expect(refused.reason == "r")
        let change = StoreChangeMessage(time: 1, line: LogLine(text: "job 4 succeeded", level: .warning))
        let changed = try #require(roundTrip(.storeChange(change)).storeChange)
        #expect(changed == change)
    }

    @Test func aStoreListingRoundTrips() throws {
        let rows = [
            StoredJobRow(id: .init(1), kind: "send-email", state: .scheduled, retries: 2, dueAt: Date(timeIntervalSince1970: 1_700_000_000.123),
                         leaseOwner: nil, lastError: "SMTP 451", isRecovery: false, payload: #"{"to":"***"}"#),
            StoredJobRow(id: .init(2), kind: "", state: .damaged, retries: 0, dueAt: nil, leaseOwner: "host:12", lastError: nil,
                         isRecovery: true, payload: "", damage: "retries is 'x'"),
        ]
        let process = WorkerProcessRow(host: "web-1", pid: 12, workers: 4, runningJobs: 1, lease: .seconds(30),
                                       lastHeartbeat: Date(timeIntervalSince1970: 1_700_000_001.5), isThisStore: true)
        let listing = StoreListing(rows: rows, counts: [.scheduled: 1, .damaged: 1, .pending: 0], processes: [process])
        let line = try MessageCoding.line(ServerMessage.reply(ReplyMessage(id: 1, ok: true, listing: WireStoreListing(listing))))
        let back = try #require(try MessageCoding.serverMessage(line.dropLast()).reply?.listing?.core)
        #expect(back == listing)
    }

    @Test func everyCommandRoundTrips() throws {
        let commands: [ConsoleCommand] = [
            .cancel(FlowID(3)), .cancelAll, .undo(FlowID(4)), .cancelJob(JobID(5)), .retryJob(JobID(6)),
            .pauseQueue("Uploads"), .resumeQueue("Uploads"), .storeList(limit: 50), .storeRetry(7), .storeRemove(8), .storeWake,
        ]
        for (id, command) in commands.enumerated() {
            let line = try MessageCoding.line(ClientMessage.command(CommandMessage(id: id, command: command)))
            let back = try #require(MessageCoding.clientMessage(line.dropLast()).command)
            #expect(back.id == id && back.command == command)
        }
        let hello = try MessageCoding.line(ClientMessage.hello(ClientHello(client: "test")))
        let back = try #require(MessageCoding.clientMessage(hello.dropLast()).hello)
        #expect(back == ClientHello(protocolVersion: "1.1", client: "test"))
    }

    @Test func aLineIsOneJSONObjectWithItsType() throws {
        let line = try MessageCoding.line(ServerMessage.flow(FlowMessage(time: 0.25, event: .stepStarted(FlowID(7), Self.step))))
        #expect(line.last == UInt8(ascii: "\n"))
        #expect(!line.dropLast().contains(UInt8(ascii: "\n")), "a title's newline is escaped")
        let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        #expect(object?["type"] as? String == "flow")
        #expect(object?["time"] as? Double == 0.25)
    }

    @Test func unknownFieldsAreIgnoredAndUnknownTypesAndCommandsAreNamed() throws {
        let newer = #"{"type":"bye","reason":"done","colour":"blue"}"#
        let bye = try #require(MessageCoding.serverMessage(Array(newer.utf8)).bye)
        #expect(bye.reason == "done")
        #expect(throws: UnknownMessageType.self) { try MessageCoding.serverMessage(Array(#"{"type":"teleport"}"#.utf8)) }
        do {
            _ = try MessageCoding.clientMessage(Array(#"{"type":"command","id":4,"command":"reboot"}"#.utf8))
            Issue.record("an unknown command was read")
        } catch let error as UnreadableCommand {
            #expect(error.id == 4 && error.reason == "unknown command 'reboot'")
        }
        do {
            _ = try MessageCoding.clientMessage(Array(#"{"type":"command","id":5,"command":"cancel"}"#.utf8))
            Issue.record("a command without its flow was read")
        } catch let error as UnreadableCommand {
            #expect(error.reason == "missing field 'flow'")
        }
        do {
            _ = try MessageCoding.clientMessage(Array("hello there".utf8))
            Issue.record("garbage was read")
        } catch let error as DecodingError {
            #expect(error.oneLine == "not JSON")
        }
    }

    @Test func versionsOfAnotherMajorAreRefusedNamingBoth() {
        #expect(ProtocolVersion.mismatch(peer: "1.7", peerName: "program", ownName: "client") == nil)
        #expect(ProtocolVersion.mismatch(peer: "2.0", peerName: "program", ownName: "client")
            == "program speaks protocol 2.0, this client 1.1")
        #expect(ProtocolVersion.mismatch(peer: "one", peerName: "client", ownName: "program")
            == "client speaks protocol 'one', which is not a version; this program speaks 1.1")
    }

    private func roundTrip(_ message: ServerMessage) throws -> ServerMessage {
        let line = try MessageCoding.line(message)
        return try MessageCoding.serverMessage(line.dropLast())
    }

    private func decoded<T: Codable>(_ value: T) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(value))
    }
}

extension ServerMessage {
    var hello: ServerHello? { if case .hello(let message) = self { message } else { nil } }
    var snapshot: SnapshotMessage? { if case .snapshot(let message) = self { message } else { nil } }
    var flow: FlowMessage? { if case .flow(let message) = self { message } else { nil } }
    var job: JobMessage? { if case .job(let message) = self { message } else { nil } }
    var storeChange: StoreChangeMessage? { if case .storeChange(let message) = self { message } else { nil } }
    var reply: ReplyMessage? { if case .reply(let message) = self { message } else { nil } }
    var bye: ByeMessage? { if case .bye(let message) = self { message } else { nil } }
    var refused: RefusedMessage? { if case .refused(let message) = self { message } else { nil } }
}

extension ClientMessage {
    var hello: ClientHello? { if case .hello(let message) = self { message } else { nil } }
    var command: CommandMessage? { if case .command(let message) = self { message } else { nil } }
}
