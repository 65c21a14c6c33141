/// A list that keeps its first element inline and only the rest in an array: for lists that
/// almost always hold one element (a flow's or a job's waiting callers, the jobs a queue starts
/// at a time), where an array for that one element was a heap allocation every time.
///
/// Iterates in the order the elements were appended.
struct InlineFirstList<Element>: Sequence {
    private var first: Element?
    private var rest: [Element] = []

    /// An empty list.
    init() {}

    /// A list of `element` alone.
    init(_ element: Element) { first = element }

    var isEmpty: Bool { first == nil }

    /// Adds `element` at the end.
    mutating func append(_ element: Element) {
        if first == nil { first = element } else { rest.append(element) }
    }

    func makeIterator() -> Iterator { Iterator(first: first, rest: rest.makeIterator()) }

    /// Calls `body` on each element in order: the first, then the rest, without an iterator.
    func forEach(_ body: (Element) throws -> Void) rethrows {
        guard let first else { return }
        try body(first)
        for element in rest { try body(element) }
    }

    /// The first element, then the rest.
    struct Iterator: IteratorProtocol {
        fileprivate var first: Element?
        fileprivate var rest: IndexingIterator<[Element]>

        mutating func next() -> Element? {
            if let element = first {
                first = nil
                return element
            }
            return rest.next()
        }
    }
}

extension InlineFirstList: Sendable where Element: Sendable {}
