import CoreMetrics
import Foundation
import Logging
import TaskFlow
import TaskFlowStore

/// The example's state: how many batches its write flows posted.
struct Ledger: Sendable {
    var batches = 0

    /// The store's job kind and the durable flows' stored revert, with what runs them.
    static func register(on store: JobStore, flows: DurableFlows<Ledger>, logger: Logger) {
        store.register(Report.self, retry: .exponential(maxAttempts: 3, initial: .milliseconds(200), multiplier: 2, cap: .seconds(1))) {
            report, attempt in
            try await Task.sleep(for: .milliseconds(100 + report.number % 5 * 100))
            // Every seventh report fails its first run: a retry, at info in the log.
            return report.number % 7 == 0 && attempt.retries == 0 ? .retry(ReportError.mailboxBusy) : .success
        }
        flows.register(ReleaseSlot.self) { slot in
            logger.info("released slot \(slot.batch)", metadata: ["batch": "\(slot.batch)"])
        }
    }
}

/// A job of the store: a report on batch `number`, mailed in a few hundred milliseconds.
struct Report: StoredJob {
    static let kind = "report"
    let number: Int
}

/// Why a report's run failed.
enum ReportError: Error {
    case mailboxBusy
}

/// A durable flow's stored revert: gives back the slot its batch reserved, after a crash too.
struct ReleaseSlot: StoredRevert {
    static let kind = "release-slot"
    let batch: Int
}
