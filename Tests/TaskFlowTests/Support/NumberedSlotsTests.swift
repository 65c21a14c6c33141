import TaskFlowTestSupport
import Testing

@testable import TaskFlow

/// The registry of live flows and the lock's readers keep their elements in `NumberedSlots`:
/// what they find there must be what a dictionary would hold, whatever the order keys come and
/// go in, and its memory must follow its elements, not the keys it has seen.
struct NumberedSlotsTests {
    /// At most twice the elements and the slack (32) in slots, after every change.
    private func expectBounded(_ slots: NumberedSlots<Int>, _ comment: Comment? = nil) {
        #expect(slots.windowLength <= 2 * slots.count + 32, comment)
    }

    private func expectSame(_ slots: NumberedSlots<Int>, as reference: [Int: Int], _ comment: Comment? = nil) {
        #expect(slots.count == reference.count, comment)
        #expect(slots.isEmpty == reference.isEmpty, comment)
        #expect(slots.valuesInKeyOrder == reference.sorted { $0.key < $1.key }.map(\.value), comment)
    }

    @Test(arguments: [1, 2, 3, 4, 5])
    func holdsWhatADictionaryHoldsWhateverTheOrder(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var slots = NumberedSlots<Int>()
        var reference: [Int: Int] = [:]
        var next = 0
        for round in 0..<20_000 {
            let roll = Int.random(in: 0..<100, using: &random)
            let key: Int
            if roll < 45 {
                // A new key, sometimes after a gap (tickets taken by waiting writers).
                next += roll < 5 ? Int.random(in: 2...40, using: &random) : 1
                key = next
                slots[key] = round
                reference[key] = round
            } else if roll < 50 {
                // Given out earlier, inserted only now (a reader admitted from the queue).
                key = max(0, next - Int.random(in: 0...200, using: &random))
                slots[key] = round
                reference[key] = round
            } else if roll < 51 {
                // Ids that jump ahead (numbering resumed from a journal).
                next += Int.random(in: 100...100_000, using: &random)
                key = next
                slots[key] = round
                reference[key] = round
            } else if let existing = reference.keys.randomElement(using: &random) {
                // Mostly the older ones leave first, as flows do.
                key = roll < 90 ? (reference.keys.min() ?? existing) : existing
                slots[key] = nil
                reference[key] = nil
            } else {
                continue
            }
            #expect(slots[key] == reference[key], "key \(key), round \(round)")
            // And a key nobody touched this round, held or not.
            let other = Int.random(in: -5...(next + 5), using: &random)
            #expect(slots[other] == reference[other], "key \(other), round \(round)")
            #expect(slots.count == reference.count, "round \(round)")
            expectBounded(slots, "round \(round)")
            if round % 1_000 == 0 { expectSame(slots, as: reference, "round \(round)") }
        }
        expectSame(slots, as: reference)
        for key in Array(reference.keys) {
            slots[key] = nil
        }
        #expect(slots.isEmpty && slots.windowLength == 0)
    }

    @Test func keysInARowAreHeldInTheWindowWithoutEmptySlots() {
        var slots = NumberedSlots<Int>()
        for key in 1...1_000 { slots[key] = key }
        #expect(slots.windowLength == 1_000 && slots.count == 1_000)
        for key in 1...500 { slots[key] = nil }
        #expect(slots.windowLength == 500 && slots[501] == 501 && slots[500] == nil)
        slots[2_000] = nil  // never held: nothing changes
        slots[0] = nil
        #expect(slots.count == 500 && slots.valuesInKeyOrder == Array(501...1_000))
    }

    @Test func oneLongLivedElementAmongManyShortOnesKeepsTheWindowSmall() {
        var slots = NumberedSlots<Int>()
        slots[1] = -1
        var longest = 0
        for key in 2..<100_002 {
            slots[key] = key
            longest = max(longest, slots.windowLength)
            slots[key] = nil
        }
        #expect(slots[1] == -1)
        #expect(slots.count == 1 && slots.valuesInKeyOrder == [-1])
        #expect(longest <= 2 * 2 + 32, "a window of up to \(longest) slots for two elements")
    }

    @Test func aKeyFarAheadTakesNoSlotsForTheGap() {
        var slots = NumberedSlots<Int>()
        slots[1] = 1
        slots[2] = 2
        slots[1_000_000] = 3
        #expect(slots.windowLength <= 3)
        #expect(slots.valuesInKeyOrder == [1, 2, 3])
        #expect(slots[2] == 2 && slots[1_000_000] == 3 && slots[500] == nil)
        slots[2] = nil
        #expect(slots.valuesInKeyOrder == [1, 3])
    }

    @Test func aKeyBelowTheWindowIsKeptAndOrdered() {
        var slots = NumberedSlots<Int>()
        for key in 10..<20 { slots[key] = key }
        slots[3] = 3
        slots[15] = nil
        #expect(slots[3] == 3 && slots[15] == nil && slots.count == 10)
        #expect(slots.valuesInKeyOrder == [3, 10, 11, 12, 13, 14, 16, 17, 18, 19])
        slots[3] = 30
        #expect(slots[3] == 30 && slots.count == 10)
    }
}
