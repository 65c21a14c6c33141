#if Postgres
import Foundation
import TaskFlowStore

/// The no-op job both sides of the PostgreSQL benchmark run; the raw side decodes its payload
/// too, as the store does before it calls an executor.
struct PostgresBenchJob: StoredJob {
    static let kind = "bench"
    let n: Int
}
#endif
