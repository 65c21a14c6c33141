import CoreMetrics
import Synchronization
import TaskFlowSupport

/// The metric objects of one component (a manager, a queue, a store), made once per key (the
/// few dimension sets it records, such as an access or a kind) by the metrics factory in effect
/// when they are first needed: the task's (`withMetricsFactory`) or else the bootstrapped one.
///
/// Made again only when that factory changes (a test binding its own, a program that
/// bootstrapped after the component was made); with the default no-op factory nothing is made
/// and ``metrics(for:)`` returns nil, so the caller skips even reading the clock.
package final class MetricsCache<Key: Hashable & Sendable, Metrics: Sendable>: Sendable {
    private struct Entries {
        /// What made `made`: the factory's type, and the instance for a class.
        var factory: FactoryIdentity?
        var made: [Key: Metrics] = [:]
    }

    private let entries = Protected(Entries())
    private let make: @Sendable (Key, any MetricsFactory) -> Metrics

    /// A cache whose metrics for a key are `make(key, factory)`.
    package init(make: @escaping @Sendable (Key, any MetricsFactory) -> Metrics) {
        self.make = make
    }

    /// The metrics for `key` from the factory in effect now; nil when it is the no-op one (or
    /// the package's switch turned instrumentation off).
    package func metrics(for key: Key) -> Metrics? {
        guard InstrumentationSwitch.isOn else { return nil }
        let factory = MetricsSystem.factory
        // The default: one comparison of types, and nothing is made or locked.
        guard Swift.type(of: factory) != NOOPMetricsHandler.self else { return nil }
        let identity = FactoryIdentity(factory)
        return entries.withLock { entries in
            if entries.factory != identity {
                entries = Entries(factory: identity)
            }
            if let metrics = entries.made[key] { return metrics }
            let metrics = make(key, factory)
            entries.made[key] = metrics
            return metrics
        }
    }
}

/// Which factory made a set of metrics, compared without boxing: its type, and for a class its
/// instance (a struct factory of the same type counts as the same: a process bootstraps one).
private struct FactoryIdentity: Equatable {
    let type: ObjectIdentifier
    let instance: ObjectIdentifier?

    init(_ factory: any MetricsFactory) {
        let type = Swift.type(of: factory)
        self.type = ObjectIdentifier(type)
        instance = type is AnyClass ? ObjectIdentifier(factory as AnyObject) : nil
    }
}

/// The package-level switch the benchmarks turn instrumentation off with, to measure what
/// metrics and traces cost with no backend against nothing at all. On unless turned off.
package enum InstrumentationSwitch {
    private static let on = Atomic(true)

    /// Whether metrics and traces are recorded (with whatever backend is bootstrapped).
    package static var isOn: Bool { on.load(ordering: .relaxed) }

    /// Turns instrumentation on or off for the whole process: the benchmarks only.
    package static func set(_ isOn: Bool) { on.store(isOn, ordering: .relaxed) }
}
