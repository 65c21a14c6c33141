import NIOConcurrencyHelpers

/// An append-only list shared by steps, reverts and the test.
final class Recorder<Element: Sendable>: Sendable {
    private let items = NIOLockedValueBox<[Element]>([])

    func record(_ item: Element) { items.withLockedValue { $0.append(item) } }

    var all: [Element] { items.withLockedValue { $0 } }
}

/// Counts how many flows hold the lock at once, and the worst overlaps seen.
final class Registrar: Sendable {
    private struct Counts {
        var readers = 0
        var writers = 0
        var maxReaders = 0
        var violations: [String] = []
    }

    private let counts = NIOLockedValueBox(Counts())

    func enter(_ access: String) {
        counts.withLockedValue { c in
            if access == "write" { c.writers += 1 } else { c.readers += 1 }
            c.maxReaders = max(c.maxReaders, c.readers)
            if c.writers > 1 || (c.writers == 1 && c.readers > 0) {
                c.violations.append("writers \(c.writers) readers \(c.readers)")
            }
        }
    }

    func leave(_ access: String) {
        counts.withLockedValue { c in
            if access == "write" { c.writers -= 1 } else { c.readers -= 1 }
        }
    }

    var maxReaders: Int { counts.withLockedValue { $0.maxReaders } }
    var violations: [String] { counts.withLockedValue { $0.violations } }
}
