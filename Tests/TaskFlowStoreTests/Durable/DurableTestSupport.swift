import Foundation
import TaskFlow
import TaskFlowStore
import TaskFlowTestSupport

/// A stored revert the tests journal: it names what the step did, so the handler can record
/// which revert ran.
struct Unmark: StoredRevert {
    static let kind = "unmark"
    let name: String
}

/// A stored revert of another kind, for tests of unknown kinds and of undecodable rows.
struct Forget: StoredRevert {
    static let kind = "forget"
    let key: Int
}

/// What the tests' steps did to "the world" (outside the process), and what the handlers undid.
final class World: Sendable {
    let done = Recorder<String>()
    let undone = Recorder<String>()

    /// The marks still applied: done and not undone, in order.
    var applied: [String] {
        let undone = Set(undone.all)
        return done.all.filter { !undone.contains($0) }
    }
}

extension DurableFlows {
    /// Registers the handler of ``Unmark`` that records in `world`.
    func registerUnmark(in world: World, retry: RetryPolicy = .never) {
        register(Unmark.self, retry: retry) { world.undone.record($0.name) }
    }
}
