import DequeModule

/// Elements keyed by whole numbers that are given out in increasing order and mostly leave soon
/// after they come: the live flows by id, the lock's readers by ticket. It does with an index what
/// a dictionary does with a hash and a probe: for an empty flow, the registry's and the lock's
/// dictionaries cost 600 instructions (one at a time) to 1,300 (100,000 at once, where the
/// tables are large and removal shifts entries back).
///
/// How it keeps its elements:
/// - **A window of slots.** Keys from `start` on are slots of a deque, the key `start + i` in
///   slot `i`; a removal empties its slot, and empty slots at the front are dropped, so the window
///   starts at the oldest key still in it. A key past the end appends (empty slots for a gap).
/// - **Stragglers.** A key below the window's start (given out earlier, inserted later) is kept
///   in a dictionary. So is an element that stays while many come and go after it: the window
///   would otherwise grow behind it with empty slots for ever (one long-running flow among a
///   million short ones), or, with gaps between the keys, ahead of it. Whenever the window holds
///   more than twice as many slots as elements (and a few), its oldest element moves to the
///   stragglers and the window starts after it. A key far past the end (ids that jump) moves the
///   whole window to the stragglers instead of appending the gap.
///
/// Every straggler's key is below the window's start, so the elements in key order are the
/// stragglers sorted, then the window.
///
/// Where it is no better than a dictionary: keys more than two apart on average (the lock's
/// readers when most tickets go to writers) leave the window too sparse, and most elements end
/// up among the stragglers, which cost what the dictionary did.
struct NumberedSlots<Element> {
    /// Slot `i` holds key `start + i`. The first is filled, unless the window is empty.
    private var slots: Deque<Element?> = []
    /// The key of the first slot; only grows, but when nothing is held at all.
    private var start = 0
    /// Elements in the window (filled slots).
    private var windowCount = 0
    /// The elements kept outside the window, all under keys below `start`.
    private var stragglers: [Int: Element] = [:]

    /// Slack allowed beyond twice the element count before the window sheds its oldest element,
    /// and the largest gap a key past the end may leave in the window.
    private static var slack: Int { 32 }

    /// Holds nothing.
    init() {}

    /// Whether it holds nothing.
    var isEmpty: Bool { windowCount == 0 && stragglers.isEmpty }

    /// How many elements it holds.
    var count: Int { windowCount + stragglers.count }

    /// The element under `key`; setting nil removes it.
    subscript(key: Int) -> Element? {
        get {
            guard key >= start else { return stragglers[key] }
            let index = key - start
            return index < slots.count ? slots[index] : nil
        }
        set {
            if let newValue { insert(newValue, at: key) } else { remove(key) }
        }
    }

    /// The window's length in slots, filled or not: at most twice its elements and the slack
    /// (for tests).
    var windowLength: Int { slots.count }

    /// The elements in the order of their keys.
    var valuesInKeyOrder: [Element] {
        stragglers.sorted { $0.key < $1.key }.map(\.value) + slots.compactMap { $0 }
    }

    private mutating func insert(_ element: Element, at key: Int) {
        if slots.isEmpty, key >= start || stragglers.isEmpty {
            start = key
        }
        guard key >= start else {
            stragglers[key] = element
            return
        }
        let index = key - start
        if index < slots.count {
            if case .none = slots[index] { windowCount += 1 }
            slots[index] = element
            return
        }
        let gap = index - slots.count
        if gap > Self.slack {
            // Jumped ahead: the window starts again at `key`, what it held kept as stragglers.
            shedWindow()
            start = key
        } else {
            slots.append(contentsOf: repeatElement(nil, count: gap))
        }
        slots.append(element)
        windowCount += 1
        shedIfSparse()
    }

    private mutating func remove(_ key: Int) {
        guard key >= start else {
            stragglers[key] = nil
            return
        }
        let index = key - start
        guard index < slots.count, case .some = slots[index] else { return }
        slots[index] = nil
        windowCount -= 1
        dropEmptyFront()
        shedIfSparse()
    }

    /// While the window holds more than twice as many slots as elements (and the slack), its
    /// oldest element, which holds it open, moves to the stragglers.
    private mutating func shedIfSparse() {
        while slots.count > 2 * windowCount + Self.slack {
            stragglers[start] = slots.removeFirst()
            windowCount -= 1
            start += 1
            dropEmptyFront()
        }
    }

    /// Drops the empty slots at the front, so that the window starts at its oldest element.
    private mutating func dropEmptyFront() {
        while case .some(.none) = slots.first {
            slots.removeFirst()
            start += 1
        }
    }

    /// Moves every element of the window to the stragglers and empties it.
    private mutating func shedWindow() {
        for (index, element) in slots.enumerated() {
            if let element { stragglers[start + index] = element }
        }
        start += slots.count
        slots = []
        windowCount = 0
    }
}

extension NumberedSlots: Sendable where Element: Sendable {}
