import TaskFlowStore

/// One e-mail of the outbox demo: the durable job's payload.
struct Email: StoredJob {
    /// A kind of its own: the demo's workers must never claim an application's e-mails on a
    /// store given with `--store`.
    static let kind = "outbox-demo-email"
    let to: String
    let subject: String
    /// The demo's SMTP credentials travel with each e-mail, as a careless app would do: the jobs
    /// view and `taskflow jobs show` show it redacted.
    let smtpPassword: String
}

/// What the simulated mail server answers.
enum MailError: Error, CustomStringConvertible {
    /// A temporary failure: worth a counted retry with backoff.
    case serverError(Int)
    /// The address does not exist: no retry will help.
    case noSuchMailbox(String)

    var description: String {
        switch self {
        case .serverError(let code): "server answered \(code)"
        case .noSuchMailbox(let address): "550 no such mailbox: \(address)"
        }
    }
}
