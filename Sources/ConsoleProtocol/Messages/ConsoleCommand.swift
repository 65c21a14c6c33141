import TaskFlow

/// What a client asks the program to do. On the wire, the command's name under `command` and
/// its argument under `flow`, `job`, `queue` or `limit`:
///
/// | command | field | does |
/// |---|---|---|
/// | `cancel` | `flow` | cancels a flow (it rolls back) |
/// | `cancelAll` | | cancels every running flow |
/// | `undo` | `flow` | undoes a completed write flow |
/// | `cancelJob` | `job` | cancels a queued job |
/// | `retryJob` | `job` | runs a failed or cancelled queued job again |
/// | `pauseQueue`, `resumeQueue` | `queue` | by the queue's title |
/// | `storeList` | `limit` | the store's oldest jobs; the reply carries the listing |
/// | `storeRetry`, `storeRemove` | `job` | a stored job, by the store's id |
/// | `storeWake` | | conditions changed: parked stored jobs become pending |
package enum ConsoleCommand: Sendable, Hashable {
    case cancel(FlowID)
    case cancelAll
    case undo(FlowID)
    case cancelJob(JobID)
    case retryJob(JobID)
    case pauseQueue(String)
    case resumeQueue(String)
    case storeList(limit: Int)
    case storeRetry(Int64)
    case storeRemove(Int64)
    case storeWake

    /// The command's name on the wire.
    package var name: String {
        switch self {
        case .cancel: "cancel"
        case .cancelAll: "cancelAll"
        case .undo: "undo"
        case .cancelJob: "cancelJob"
        case .retryJob: "retryJob"
        case .pauseQueue: "pauseQueue"
        case .resumeQueue: "resumeQueue"
        case .storeList: "storeList"
        case .storeRetry: "storeRetry"
        case .storeRemove: "storeRemove"
        case .storeWake: "storeWake"
        }
    }

    /// Whether it changes the program: a read-only console refuses those.
    package var changesProgram: Bool {
        if case .storeList = self { return false }
        return true
    }
}

extension ConsoleCommand: Codable {
    private enum CodingKeys: String, CodingKey { case command, flow, job, queue, limit }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func flow() throws -> FlowID { FlowID(try c.decode(Int.self, forKey: .flow)) }
        func job() throws -> UInt64 { try c.decode(UInt64.self, forKey: .job) }
        func stored() throws -> Int64 { try c.decode(Int64.self, forKey: .job) }
        func queue() throws -> String { try c.decode(String.self, forKey: .queue) }
        switch try c.decode(String.self, forKey: .command) {
        case "cancel": self = .cancel(try flow())
        case "cancelAll": self = .cancelAll
        case "undo": self = .undo(try flow())
        case "cancelJob": self = .cancelJob(JobID(try job()))
        case "retryJob": self = .retryJob(JobID(try job()))
        case "pauseQueue": self = .pauseQueue(try queue())
        case "resumeQueue": self = .resumeQueue(try queue())
        case "storeList": self = .storeList(limit: try c.decodeIfPresent(Int.self, forKey: .limit) ?? 100)
        case "storeRetry": self = .storeRetry(try stored())
        case "storeRemove": self = .storeRemove(try stored())
        case "storeWake": self = .storeWake
        case let other:
            throw DecodingError.dataCorruptedError(forKey: .command, in: c, debugDescription: "unknown command '\(other)'")
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .command)
        switch self {
        case .cancel(let id), .undo(let id): try c.encode(id.rawValue, forKey: .flow)
        case .cancelJob(let id), .retryJob(let id): try c.encode(id.rawValue, forKey: .job)
        case .pauseQueue(let title), .resumeQueue(let title): try c.encode(title, forKey: .queue)
        case .storeList(let limit): try c.encode(limit, forKey: .limit)
        case .storeRetry(let id), .storeRemove(let id): try c.encode(id, forKey: .job)
        case .cancelAll, .storeWake: break
        }
    }
}
