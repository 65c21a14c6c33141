import DequeModule
import TaskFlow

/// Flows in the order they arrived, with O(1) amortised append and removal by identity: the
/// lock's holders and waiting queue, which can hold thousands of flows (a burst of readers)
/// while every admission removes one. An array's `removeAll(where:)` made each removal linear,
/// so a burst of n flows cost O(n²).
///
/// Removal only forgets the identity; the stale entry stays in the deque until it reaches the
/// front or until stale entries outnumber live ones, when one pass drops them all.
package struct ArrivalQueue: Sendable, Hashable, Sequence {
    private var order: Deque<FlowInfo> = []
    private var present: Set<FlowID> = []

    /// An empty queue.
    package init() {}

    /// How many flows are in the queue.
    package var count: Int { present.count }

    /// True when no flow is in the queue.
    package var isEmpty: Bool { present.isEmpty }

    /// Adds `flow` at the end (a flow already in the queue keeps its place).
    mutating func append(_ flow: FlowInfo) {
        guard present.insert(flow.id).inserted else { return }
        order.append(flow)
    }

    /// Removes the flow with this identity, if it is in the queue.
    mutating func remove(_ id: FlowID) {
        guard present.remove(id) != nil else { return }
        while let first = order.first, !present.contains(first.id) { order.removeFirst() }
        if order.count > 2 * present.count + 16 { order.removeAll { !present.contains($0.id) } }
    }

    /// The flows in arrival order.
    package func makeIterator() -> some IteratorProtocol<FlowInfo> {
        let present = present
        return order.lazy.filter { present.contains($0.id) }.makeIterator()
    }

    /// Equal when the same flows are queued in the same order, whatever stale entries each
    /// still carries.
    package static func == (lhs: ArrivalQueue, rhs: ArrivalQueue) -> Bool {
        lhs.count == rhs.count && lhs.elementsEqual(rhs)
    }

    /// Hashes the queued flows in order, consistently with ``==``.
    package func hash(into hasher: inout Hasher) {
        for flow in self { hasher.combine(flow) }
    }
}
