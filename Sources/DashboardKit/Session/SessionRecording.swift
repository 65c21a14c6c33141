import ConsoleProtocol
import Foundation
import TaskFlow

/// Records what a dashboard session shows to a file, as the attach protocol's JSON lines that
/// `taskflow replay` plays: a `hello`, then every snapshot the session takes in, every flow and
/// job queue event it applies and every job store change it logs (a resynchronising snapshot
/// with the count of events it replaced), each with the session's own
/// time, so that a replay applies the same things at the same times. One line attaches it:
///
/// ```swift
/// let recording = try SessionRecording.attach(to: session, path: "run.jsonl", title: "Importer")
/// // ... run the session (start it after attaching: its first snapshot opens the file) ...
/// recording.close()   // once the loop ended: writes what waits
/// ```
///
/// The file is created owner-only (0600); writing happens off the main thread and never slows
/// the session (see ``ConsoleProtocol/SessionRecorder``: a disk too slow loses lines, counted
/// on standard error at ``close()``).
@MainActor
package final class SessionRecording {
    private let recorder: SessionRecorder
    /// The session's start: job events' instants are written as seconds since it.
    private let origin: ContinuousClock.Instant

    private init(recorder: SessionRecorder, origin: ContinuousClock.Instant) {
        self.recorder = recorder
        self.origin = origin
    }

    /// Creates (or empties) `path`, writes the hello — `title`, this process, `readOnly`
    /// (what its keys could do) — and records everything `session` shows from now on. Throws
    /// ``ConsoleProtocol/RecordingError`` ("cannot record to run.jsonl: Permission denied")
    /// when the file cannot be created.
    @discardableResult
    package static func attach(
        to session: DashboardSession, path: String, title: String, readOnly: Bool = false
    ) throws -> SessionRecording {
        let recording = SessionRecording(recorder: try SessionRecorder(path: path), origin: session.startedAt)
        let started = Date(timeIntervalSinceNow: -session.elapsed.seconds)
        recording.recorder.record(
            .hello(ServerHello(program: ProcessInfo.processInfo.processName, pid: getpid(), title: title,
                               started: started, readOnly: readOnly)))
        session.recording = recording
        return recording
    }

    /// Writes what waits and closes the file (the session ended); says on standard error when
    /// lines were lost.
    package func close() {
        for problem in recorder.close() { OutputWriter.standardError.write(problem + "\n") }
    }

    func adopted(_ snapshot: ManagerSnapshot, queues: [QueueDescription]?, at time: Duration) {
        recorder.record(.snapshot(SnapshotMessage(time: time.seconds, manager: snapshot, origin: origin, queues: queues)))
    }

    /// A snapshot that replaced `missed` lost events: written with its count, so that a replay
    /// takes it as the recorded session did, letting go of the flows it no longer shows.
    func resynced(_ snapshot: ManagerSnapshot, missed: Int, at time: Duration) {
        recorder.record(.snapshot(SnapshotMessage(time: time.seconds, manager: snapshot, origin: origin, missed: missed)))
    }

    func ingested(_ event: FlowEvent, at time: Duration) {
        recorder.record(.flow(FlowMessage(time: time.seconds, event: event)))
    }

    func ingested(_ event: JobEvent, at time: Duration) {
        recorder.record(.job(JobMessage(time: time.seconds, event: WireJobEvent(event, origin: origin))))
    }

    func storeChanged(_ line: LogLine, at time: Duration) {
        recorder.record(.storeChange(StoreChangeMessage(time: time.seconds, line: line)))
    }
}
