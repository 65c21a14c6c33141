import Foundation
import TaskFlow
import TaskFlowSupport

/// The handlers registered per stored revert kind, with their retry policies, type-erased so
/// that a journaled revert runs from its JSON, in this process or after a restart.
final class RevertHandlers: Sendable {
    struct Handler: Sendable {
        let policy: RetryPolicy
        /// Decodes a payload into the call that reverts it; throws ``UnrunnableRevert`` for JSON
        /// that is not the registered type.
        let prepare: @Sendable (Data) throws -> @Sendable () async throws -> Void
    }

    private let handlers = Protected([String: Handler]())

    /// Registers (or replaces) the handler of `Revert.kind`.
    func register<Revert: StoredRevert>(
        _ type: Revert.Type, policy: RetryPolicy, handler: @escaping @Sendable (Revert) async throws -> Void
    ) {
        let erased = Handler(policy: policy) { payload in
            let revert: Revert
            do {
                revert = try JSONDecoder().decode(Revert.self, from: payload)
            } catch {
                throw UnrunnableRevert(reason: "its JSON does not decode as \"\(Revert.kind)\": \(error)")
            }
            return { try await handler(revert) }
        }
        handlers.withLock { $0[Revert.kind] = erased }
    }

    func handler(for kind: String) -> Handler? {
        handlers.withLock { $0[kind] }
    }

    /// The call that runs the journaled revert `kind`/`payload`, with its kind's retry policy;
    /// throws ``UnrunnableRevert`` when no handler is registered for the kind or the JSON does
    /// not decode as its type.
    func prepare(kind: String, payload: Data) throws -> (policy: RetryPolicy, run: @Sendable () async throws -> Void) {
        guard let handler = handler(for: kind) else {
            throw UnrunnableRevert(reason: "no handler registered for kind \"\(kind)\"")
        }
        return (handler.policy, try handler.prepare(payload))
    }
}

/// Why a journaled revert cannot run in this process: its flow's rollback stops there.
struct UnrunnableRevert: Error, CustomStringConvertible {
    let reason: String

    var description: String { reason }
}
