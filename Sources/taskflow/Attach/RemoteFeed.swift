import ConsoleProtocol
import DashboardKit
import Foundation
import TaskFlow
import TaskFlowSupport

/// A watched program's messages, routed as they are read to the streams the dashboard takes
/// its parts from: flow events, resyncs, command notices and the end in one ordered stream
/// (``updates``); a handle per flow learned (``handles``); job events; store changes. Each
/// stream holds what came until the dashboard takes it, so nothing read before its start-up
/// ended is lost. Once the connection ends, every stream finishes and ``endLine`` says why.
final class RemoteFeed: Sendable {
    /// The program's hello.
    let hello: ServerHello
    /// Where the program's times fall on this process's clock.
    let clock: RemoteClock
    /// See ``WatchedSource/updates()``.
    let updates = HeldStream<SourceUpdate>()
    /// A handle per flow learned of, whose cancel and undo are commands to the program.
    let handles = HeldStream<FlowHandle>()
    /// The program's job queue events.
    let jobs = HeldStream<JobEvent>()
    /// The program's job store changes, as log lines.
    let storeChanges = HeldStream<LogLine>()
    /// The commands the keys send; their outcomes go to ``updates`` as notices.
    let commands: RemoteCommands
    /// Flows with a handle out and no final status seen: a flow's handle is made once, and
    /// the set stays as small as the program's live flows.
    private let live = Protected(Set<FlowID>())
    private let ending = Protected(Ending.following)

    /// Whether, and how, the feed ended.
    private enum Ending {
        case following
        /// The user left (`q`): the connection's close that follows is no news.
        case detached
        case ended(line: String)
    }

    /// A feed of the program that said `hello` over `connection`, its first snapshot taken
    /// `snapshotTime` seconds into its feed.
    init(hello: ServerHello, connection: any ConsoleConnection, snapshotTime: Double) {
        self.hello = hello
        clock = RemoteClock(snapshotTime: snapshotTime)
        commands = RemoteCommands(connection: connection) { [updates] in updates.yield(.notice($0)) }
    }

    /// Why the connection ended ("importer (pid 4242) exited"), once it did.
    var endLine: String? {
        ending.withLock { if case .ended(let line) = $0 { line } else { nil } }
    }

    /// The user is leaving: the connection's close that follows ends the streams silently.
    func detach() {
        ending.withLock { if case .following = $0 { $0 = .detached } }
        finishStreams()
    }

    /// Routes one message.
    func take(_ message: ServerMessage) {
        switch message {
        case .flow(let message):
            let event = message.event.core
            updates.yield(.event(TimedFlowEvent(time: clock.instant(message.time), event: event)))
            switch event {
            case .flowQueued(let info): learn([info.id])
            case .statusChanged(let id, let status) where status.isFinished: _ = live.withLock { $0.remove(id) }
            default: break
            }
        case .snapshot(let message):
            let snapshot = message.manager(origin: clock.origin)
            let ids = snapshot.flows.map(\.info.id)
            // Flows gone from it ended meanwhile: their handles are out already, and done.
            live.withLock { $0.formIntersection(ids) }
            learn(ids)
            updates.yield(.resync(snapshot, missed: message.missed ?? 0, time: clock.instant(message.time)))
        case .job(let message): jobs.yield(message.event.core(origin: clock.origin))
        case .storeChange(let message): storeChanges.yield(message.line)
        case .bye(let bye): end("\(who) ended the session: \(bye.reason)")
        case .refused(let refusal): end("\(who) refused this client: \(refusal.reason)")
        case .hello, .reply: break
        }
    }

    /// Hands out a handle for each flow of `ids` that has none out.
    func learn(_ ids: [FlowID]) {
        let new = live.withLock { live in ids.filter { live.insert($0).inserted } }
        for id in new {
            handles.yield(FlowHandle(
                id: id, cancel: { [commands] in commands.fire(.cancel(id), "cancel \(id)") },
                undo: { [commands] in try await commands.perform(.undo(id), "undo \(id)") }))
        }
    }

    /// The connection closed: the program exited, or it is running and the connection was lost.
    /// A killed program's sockets close while its process is still being torn down, so it gets
    /// ``exitGrace`` to be gone before the connection is called lost.
    func closed() async {
        let deadline = ContinuousClock.now + Self.exitGrace
        var running = ProcessState.isRunning(hello.pid)
        while running, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
            running = ProcessState.isRunning(hello.pid)
        }
        end(running ? "connection lost: \(who) closed it" : "\(who) exited")
    }

    /// How long a program whose connection closed has to be gone for it to count as exited.
    static let exitGrace = Duration.milliseconds(500)

    /// "importer (pid 4242)".
    private var who: String { "\(hello.program) (pid \(hello.pid))" }

    /// Ends every stream once, the updates with ``SourceUpdate/ended``, so the dashboard's loop
    /// ends and ``endLine`` says `line`.
    private func end(_ line: String) {
        let first = ending.withLock { ending in
            guard case .following = ending else { return false }
            ending = .ended(line: line)
            return true
        }
        guard first else { return }
        updates.yield(.ended)
        finishStreams()
    }

    private func finishStreams() {
        for finish in [updates.finish, handles.finish, jobs.finish, storeChanges.finish] { finish() }
    }
}
