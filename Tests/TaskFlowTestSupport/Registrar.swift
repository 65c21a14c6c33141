import TaskFlowSupport

/// Counts how many flows hold the lock at once, and the worst overlaps seen.
public final class Registrar: Sendable {
    private struct Counts {
        var readers = 0
        var writers = 0
        /// The most readers seen inside at once.
    public var maxReaders = 0
        /// Every moment a writer was not alone.
    public var violations: [String] = []
    }

    private let counts = Protected(Counts())

    /// A registrar with nobody inside.
    public init() {}

    /// Notes a flow of `access` (`read`/`write`) entering.
    public func enter(_ access: String) {
        counts.withLock { c in
            if access == "write" { c.writers += 1 } else { c.readers += 1 }
            c.maxReaders = max(c.maxReaders, c.readers)
            if c.writers > 1 || (c.writers == 1 && c.readers > 0) {
                c.violations.append("writers \(c.writers) readers \(c.readers)")
            }
        }
    }

    /// Notes a flow of `access` leaving.
    public func leave(_ access: String) {
        counts.withLock { c in
            if access == "write" { c.writers -= 1 } else { c.readers -= 1 }
        }
    }

    /// The most readers seen inside at once.
    public var maxReaders: Int { counts.withLock { $0.maxReaders } }
    /// Every moment a writer was not alone.
    public var violations: [String] { counts.withLock { $0.violations } }
}
