import CoreMetrics
import TaskFlow

/// `taskflow.store.jobs` (counter; `kind`, `outcome`), DESIGN §9: one per outcome a store
/// committed — `succeeded`, `retried` (a counted retry scheduled), `parked`, `failed` (for
/// good, a damaged row a claim rejected included) and `recovered` (a dead worker's job queued
/// again). Counted as the change is published, after its commit; counters are made once per
/// kind and outcome, and not at all with the default no-op metrics.
struct StoreMetrics: Sendable {
    private struct Key: Hashable, Sendable {
        let kind: String
        let outcome: String
    }

    private let counters = MetricsCache<Key, Counter> { key, factory in
        Counter(label: "taskflow.store.jobs", dimensions: [("kind", key.kind), ("outcome", key.outcome)], factory: factory)
    }

    /// Counts the outcomes among `events`.
    func count(_ events: [StoredJobEvent]) {
        for event in events {
            guard let (kind, outcome) = Self.outcome(of: event) else { continue }
            counters.metrics(for: Key(kind: kind, outcome: outcome))?.increment()
        }
    }

    /// The kind and outcome an event reports, if it reports one.
    private static func outcome(of event: StoredJobEvent) -> (String, String)? {
        switch event {
        case .succeeded(_, let kind): (kind, "succeeded")
        case .retryScheduled(_, let kind, _, _, _): (kind, "retried")
        case .parked(_, let kind): (kind, "parked")
        case .failed(_, let kind, _): (kind, "failed")
        case .recovered(_, let kind): (kind, "recovered")
        case .submitted, .started, .requeued, .cancelled, .purged, .storeError: nil
        }
    }
}
