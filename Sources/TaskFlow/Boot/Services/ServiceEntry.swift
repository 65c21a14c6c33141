import TaskFlowSupport

/// One registered service: its recipe until first use, then the instance everyone shares.
final class ServiceEntry: Sendable {
    private enum Slot {
        case recipe(@Sendable () -> any Sendable)
        case built(any Sendable)
    }

    /// The service type's full name, for messages.
    let typeName: String
    private let slot: Protected<Slot>

    init(typeName: String, build: @escaping @Sendable () -> any Sendable) {
        self.typeName = typeName
        slot = Protected(.recipe(build))
    }

    /// The instance, built by the first caller. The recipe runs under this entry's lock on
    /// purpose: concurrent first callers wait for it instead of building a second instance.
    func instance() -> any Sendable {
        slot.withLock { slot in
            switch slot {
            case .built(let instance):
                return instance
            case .recipe(let build):
                let instance = build()
                slot = .built(instance)
                return instance
            }
        }
    }
}
