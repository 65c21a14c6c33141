import Foundation
import TaskFlow

/// A watcher's rows, each payload redacted once rather than at every listing: the dashboard
/// lists up to 1,000 jobs twice a second, and a job's payload does not change once submitted. A payload
/// is redacted again if its bytes differ from those redacted before under its id all the same
/// (the store file is input: anything may have written it). Keeps the latest listing's only.
package actor RedactedPayloads {
    private var byID: [StoredJobID: (raw: Data, redacted: String)] = [:]

    /// `jobs` as rows, their text redacted.
    package func rows(for jobs: [StoredJobInfo]) -> [StoredJobRow] {
        var kept: [StoredJobID: (raw: Data, redacted: String)] = [:]
        kept.reserveCapacity(jobs.count)
        let rows = jobs.map { job in
            let known = byID[job.id].flatMap { $0.raw == job.payload ? $0.redacted : nil }
            let redacted = known ?? job.redactedText.payload
            kept[job.id] = (job.payload, redacted)
            return StoredJobRow(job, redactedPayload: redacted)
        }
        byID = kept
        return rows
    }
}
