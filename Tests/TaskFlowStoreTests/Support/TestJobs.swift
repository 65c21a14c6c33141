import TaskFlowStore

/// The job most tests submit.
struct Greeting: StoredJob, Equatable {
    static let kind = "greeting"
    let name: String
}

/// A failure executors return.
struct Boom: Error, CustomStringConvertible {
    let what: String
    init(_ what: String = "boom") { self.what = what }
    var description: String { "Boom(\(what))" }
}
