import ConsoleProtocol
import TaskFlow

/// Carries out clients' commands on the program's manager, queues and store, and says how it
/// went in one line.
struct CommandRunner: Sendable {
    let cancelFlow: @Sendable (FlowID) -> Bool
    let undoFlow: @Sendable (FlowID) async throws -> Void
    let snapshot: @Sendable () -> ManagerSnapshot
    let queues: (any JobQueueSource)?
    let store: (any JobStoreSource)?
    let readOnly: Bool

    /// The most rows one `storeList` returns, whatever the client asks.
    static let maxListing = 10_000

    init<State>(manager: TaskFlowManager<State>, queues: (any JobQueueSource)?, store: (any JobStoreSource)?, readOnly: Bool) {
        cancelFlow = { manager.cancel($0) }
        undoFlow = { try await manager.undo($0) }
        snapshot = { manager.snapshot() }
        self.queues = queues
        self.store = store
        self.readOnly = readOnly
    }

    /// Carries out `command`; the reply for the command `id`.
    func reply(to command: ConsoleCommand, id: Int) async -> ReplyMessage {
        if readOnly, command.changesProgram { return ReplyMessage(id: id, ok: false, message: "read-only console") }
        do {
            let (message, listing) = try await run(command)
            return ReplyMessage(id: id, ok: true, message: message, listing: listing.map(WireStoreListing.init))
        } catch {
            return ReplyMessage(id: id, ok: false, message: String(describing: error))
        }
    }

    private func run(_ command: ConsoleCommand) async throws(Refusal) -> (String?, StoreListing?) {
        switch command {
        case .cancel(let id):
            try cancel(id)
        case .cancelAll:
            let live = snapshot().flows.filter { !$0.status.isFinished }
            let cancelled = live.filter { cancelFlow($0.info.id) }.count
            return ("cancelled \(cancelled) flow\(cancelled == 1 ? "" : "s")", nil)
        case .undo(let id):
            try await undo(id)
        case .cancelJob(let id):
            try queueSource().cancel(id)
        case .retryJob(let id):
            let source = try queueSource()
            do {
                let runs = try source.retry(id)
                return ("running again as \(runs.map(\.description).joined(separator: ", "))", nil)
            } catch {
                throw Refusal(String(describing: error))
            }
        case .pauseQueue(let title), .resumeQueue(let title):
            let source = try queueSource()
            guard source.queues.contains(where: { $0.title == title }) else { throw Refusal("unknown queue '\(title)'") }
            if case .pauseQueue = command { source.setPaused(true, queue: title) } else { source.setPaused(false, queue: title) }
        case .storeList(let limit):
            let store = try jobStore()
            do {
                return (nil, try await store.listing(limit: min(max(limit, 1), Self.maxListing)))
            } catch {
                throw Refusal(String(describing: error))
            }
        case .storeRetry(let id), .storeRemove(let id):
            let store = try jobStore()
            do {
                if case .storeRetry = command {
                    try await store.retry(StoredJobRow.ID(id))
                } else {
                    try await store.cancel(StoredJobRow.ID(id))
                }
            } catch {
                throw Refusal(String(describing: error))
            }
        case .storeWake:
            try jobStore().conditionsChanged()
        }
        return (nil, nil)
    }

    private func cancel(_ id: FlowID) throws(Refusal) {
        guard !cancelFlow(id) else { return }
        if snapshot().undoable.contains(where: { $0.id == id }) {
            throw Refusal("flow \(id.rawValue) has completed: only a running flow can be cancelled (undo it instead)")
        }
        throw Refusal("unknown flow \(id.rawValue)")
    }

    private func undo(_ id: FlowID) async throws(Refusal) {
        do {
            try await undoFlow(id)
        } catch FlowError.unknownFlow {
            throw Refusal("unknown flow \(id.rawValue)")
        } catch let error as FlowError {
            throw Refusal("flow \(id.rawValue) is not undoable: \(error)")
        } catch {
            throw Refusal("undo of flow \(id.rawValue) failed: \(error)")
        }
    }

    private func queueSource() throws(Refusal) -> any JobQueueSource {
        guard let queues else { throw Refusal("no job queues") }
        return queues
    }

    private func jobStore() throws(Refusal) -> any JobStoreSource {
        guard let store else { throw Refusal("no job store") }
        return store
    }

    /// Why a command was not carried out, in one line.
    struct Refusal: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
