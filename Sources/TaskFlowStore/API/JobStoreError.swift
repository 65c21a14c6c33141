/// Why a store refused a file or a request. Each description is one line naming what to fix.
public enum JobStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file exists but is not an SQLite database; it was left untouched.
    case notADatabase(path: String)
    /// The file is an SQLite database of some other program; it was left untouched.
    case notAJobStore(path: String)
    /// The file was written by a newer TaskFlow (a schema this version does not know); it was
    /// left untouched.
    case newerSchema(path: String)
    /// The file could not be opened or read (permissions, corruption): SQLite's message.
    case unreadable(path: String, reason: String)
    /// `start` was called on a store that is starting, running, stopping or stopped, or `stop`
    /// ended the store while it was starting.
    case notIdle
    /// The job is running; it can be cancelled once its run ends.
    case jobRunning(StoredJobID)
    /// No job with this id (or none in the state the request needs, e.g. failed for a retry).
    case noSuchJob(StoredJobID)

    /// One line naming the file or job and what is wrong.
    public var description: String {
        switch self {
        case .notADatabase(let path): "\(path): not a TaskFlow job store (not an SQLite database); left untouched"
        case .notAJobStore(let path): "\(path): an SQLite database of another program, not a TaskFlow job store; left untouched"
        case .newerSchema(let path): "\(path): written by a newer TaskFlow (unknown schema); left untouched"
        case .unreadable(let path, let reason): "\(path): cannot open the job store: \(reason)"
        case .notIdle: "the job store was started or stopped already (start is allowed once, before stop)"
        case .jobRunning(let id): "job \(id) is running; it can be cancelled when its run ends"
        case .noSuchJob(let id): "no job \(id) in that state"
        }
    }
}
