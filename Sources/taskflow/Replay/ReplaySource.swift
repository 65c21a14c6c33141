import ConsoleProtocol
import DashboardKit
import Foundation
import TaskFlow

/// A recording read from its file (see ``SessionRecording``): the program's hello and the
/// entries to play, up to the first line that could not be read, which ``problem`` names as
/// `FILE:LINE: why`. Lines are read through the protocol's ``LineFramer``, so a line longer than
/// its limit (a hostile 100 MB line, binary garbage without newlines) is a problem at that
/// line, never a buffer that grows with it.
struct ReplaySource {
    /// Who was recorded.
    let hello: ServerHello
    /// What to play, in the file's order.
    let entries: [ReplayEntry]
    /// The first line that could not be read, as `FILE:LINE: why`; nil when every line was.
    let problem: String?

    /// How much of the file is read at a time.
    private static let chunkSize = 64 * 1024

    /// Reads the recording at `path`; job events' instants are placed on a clock whose session
    /// started at `origin`. Throws when there is nothing to play: a ``CommandFailure`` when the
    /// file is missing, unreadable or empty, a ``ReplayFileProblem`` when its first line is not
    /// a hello this build can read.
    static func read(_ path: String, origin: ContinuousClock.Instant) throws -> ReplaySource {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw failure("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { try? handle.close() }
        var reader = Reader(path: path, origin: origin)
        var framer = LineFramer()
        do {
            while reader.problem == nil {
                let chunk = try handle.read(upToCount: chunkSize) ?? Data()
                if chunk.isEmpty {
                    // The last line may lack its newline: a file cut short, or a hand-made one.
                    if framer.pendingCount > 0 { framer.append([UInt8(ascii: "\n")]) } else { break }
                    reader.lastLineUnterminated = true
                } else {
                    framer.append(chunk)
                }
                while reader.problem == nil, let line = try framer.nextLine() { reader.take(line) }
            }
        } catch let tooLong as LineFramer.LineTooLong {
            reader.fail(tooLong.description, atLine: reader.lineNumber + 1)
        } catch {
            throw failure("cannot read \(path): \(error)")
        }
        return try reader.source()
    }
}

/// Reads a recording's lines in order, stopping at the first it cannot read.
private struct Reader {
    let path: String
    let origin: ContinuousClock.Instant
    /// How many lines were read.
    var lineNumber = 0
    var hello: ServerHello?
    /// The recording's protocol version, from its hello.
    var version = ProtocolVersion.current
    var entries: [ReplayEntry] = []
    var problem: String?
    /// True once the file ended in the middle of a line.
    var lastLineUnterminated = false
    /// True after `bye`: the recording is over.
    var ended = false

    init(path: String, origin: ContinuousClock.Instant) {
        self.path = path
        self.origin = origin
    }

    mutating func take(_ line: [UInt8]) {
        lineNumber += 1
        guard !ended else { return }
        do {
            read(try MessageCoding.serverMessage(line))
        } catch let unknown as UnknownMessageType {
            // A newer minor version adds messages, which an older reader skips.
            if version.major == ProtocolVersion.current.major, version.minor > ProtocolVersion.current.minor { return }
            fail(unknown.description)
        } catch let error as DecodingError {
            fail(lastLineUnterminated ? "line cut short (the recording ends mid-line)" : error.oneLine)
        } catch {
            fail("\(error)")
        }
    }

    private mutating func read(_ message: ServerMessage) {
        guard hello != nil else {
            guard case .hello(let hello) = message else { return fail("not a recording: the first line is no hello") }
            if let mismatch = ProtocolVersion.mismatch(peer: hello.protocolVersion, peerName: "the recording", ownName: "taskflow") {
                return fail(mismatch)
            }
            version = ProtocolVersion(hello.protocolVersion) ?? .current
            self.hello = hello
            return
        }
        switch message {
        case .hello: fail("a second hello")
        case .snapshot(let snapshot):
            let manager = snapshot.manager(origin: origin)
            if let missed = snapshot.missed {
                guard missed >= 0 else { return fail("missed \(missed) is not a count of events") }
                add(snapshot.time, .resync(manager, missed: missed))
            } else {
                add(snapshot.time, .snapshot(manager, queues: snapshot.queues?.map(\.core)))
            }
        case .flow(let flow): add(flow.time, .flow(flow.event.core))
        case .job(let job): add(job.time, .job(job.event.core(origin: origin)))
        case .storeChange(let change): add(change.time, .storeChange(change.line))
        case .reply: break  // An answer to a command: nothing the screen showed.
        case .bye: ended = true
        case .refused(let refusal): fail("the program refused the recording: \(refusal.reason)")
        }
    }

    /// Adds an entry at `seconds` since the recorded session started.
    private mutating func add(_ seconds: Double, _ content: ReplayEntry.Content) {
        // A year: past that, a time is damage, not a session (and would overflow below).
        guard seconds.isFinite, (0...31_536_000).contains(seconds) else {
            return fail("time \(seconds) is not a time since the recording started")
        }
        // The sessions' clocks count nanoseconds: rounded to them, a time read back is the very
        // time recorded, so a replay prints the times the recorded run printed.
        let time = Duration.nanoseconds(Int64((seconds * 1e9).rounded()))
        entries.append(ReplayEntry(time: time, content: content))
    }

    mutating func fail(_ why: String, atLine line: Int? = nil) {
        guard problem == nil else { return }
        problem = "\(path):\(line ?? lineNumber): \(why)"
    }

    /// The source read, or why there is nothing to play.
    func source() throws -> ReplaySource {
        guard let hello else {
            if let problem { throw ReplayFileProblem(description: problem) }
            throw failure("\(path) is empty: not a recording")
        }
        return ReplaySource(hello: hello, entries: entries, problem: problem)
    }
}

/// A recording's line that could not be read, before anything could be played: `FILE:LINE: why`.
struct ReplayFileProblem: Error, CustomStringConvertible {
    /// `FILE:LINE: why`.
    let description: String
}
