/// How a dependency ended, as its dependents see it.
enum DependencyOutcome: Sendable {
    /// It succeeded: one unmet dependency less.
    case succeeded
    /// It failed or was cancelled: the dependent fails without running, naming it.
    case failed(dependency: String, cancelled: Bool)

    /// The outcome of a job titled `title` that ended as `status`, a final one.
    init(title: String, endedAs status: JobStatus) {
        switch status {
        case .succeeded: self = .succeeded
        case .cancelled: self = .failed(dependency: title, cancelled: true)
        case .failed: self = .failed(dependency: title, cancelled: false)
        case .waiting, .running, .retrying: preconditionFailure("TaskFlow: a dependency's outcome before its end")
        }
    }

    /// Tells each dependent how its dependency ended, and the dependents of those that end as a
    /// result, and so on: with a work list rather than recursion, so a failure at the head of a
    /// chain of a million jobs needs no deeper stack than one at the end. A dependent that becomes
    /// ready may be taken by `handOff`.
    static func deliver(_ notices: [DependencyNotice], handOff: inout JobHandOff?) {
        var work = notices
        while let notice = work.popLast() {
            work += notice.dependent.dependencyEnded(notice.outcome, handOff: &handOff)
        }
    }

    /// ``deliver(_:handOff:)`` with no task to offer.
    static func deliver(_ notices: [DependencyNotice]) {
        var noHandOff: JobHandOff?
        deliver(notices, handOff: &noHandOff)
    }
}

/// A dependency's outcome on its way to one dependent.
struct DependencyNotice: Sendable {
    let dependent: JobRecord
    let outcome: DependencyOutcome
}
