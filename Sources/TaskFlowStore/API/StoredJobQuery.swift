/// Which of a store's jobs a listing reads, in which order, and how many: what
/// ``JobStore/jobs(matching:)`` and ``JobStore/count(matching:)`` take.
///
/// Both backends answer it with one query on an index (by id, by state, by kind), so a page of a
/// store of millions costs what the page costs, and paging on with ``after`` costs the same at
/// any depth. The default is every job, oldest first, payloads included.
public struct StoredJobQuery: Sendable, Hashable {
    /// Which end of the store a listing starts at. Ids grow with submission, so this is also
    /// submission order.
    public enum Order: Sendable, Hashable {
        /// The oldest first: the order in which pending jobs are claimed.
        case oldestFirst
        /// The newest first.
        case newestFirst
    }

    /// Only jobs whose row stores one of these states; empty means every state. A damaged row is
    /// found under the state its row stores, if that is one of these: ``StoredJobState/damaged``
    /// itself selects nothing.
    public var states: Set<StoredJobState>
    /// Only jobs of this kind; nil means every kind.
    public var kind: String?
    /// The order of the jobs listed.
    public var order: Order
    /// Only jobs that come after this one in ``order`` — the last job of the previous page, to
    /// list the next one. A cursor rather than an offset: a deep page costs what the first does,
    /// and jobs that finish between two pages shift nothing.
    public var after: StoredJobID?
    /// At most this many jobs (a negative limit lists none); nil means no bound. Counting
    /// ignores it.
    public var limit: Int?
    /// Whether the jobs come with their payloads. Without (a table of jobs), the payloads are
    /// not read from the database at all and each ``StoredJobInfo/payload`` is empty, so a
    /// listing costs the same whatever the payloads weigh.
    public var includesPayloads: Bool

    /// A query; the defaults select every job, oldest first, payloads included.
    public init(
        states: Set<StoredJobState> = [], kind: String? = nil, order: Order = .oldestFirst, after: StoredJobID? = nil,
        limit: Int? = nil, includesPayloads: Bool = true
    ) {
        self.states = states
        self.kind = kind
        self.order = order
        self.after = after
        self.limit = limit
        self.includesPayloads = includesPayloads
    }
}
