import TaskFlowSupport

/// An append-only list shared by steps, reverts and the test.
public final class Recorder<Element: Sendable>: Sendable {
    private let items = Protected<[Element]>([])

    /// An empty list.
    public init() {}

    /// Appends `item`.
    public func record(_ item: Element) { items.withLock { $0.append(item) } }

    /// Everything recorded, in order.
    public var all: [Element] { items.withLock { $0 } }

    /// How many were recorded, without copying them.
    public var count: Int { items.withLock { $0.count } }
}
