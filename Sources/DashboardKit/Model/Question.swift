/// A yes/no question a view asks before acting (undo this flow? remove this job?): the status
/// bar shows it, `y` answers yes, `n` or Esc no, every other key leaves it waiting. The view
/// says everything in advance, so the model answers it without knowing what it is about.
package struct Question: Sendable, Hashable {
    /// The status bar's line: the question and the answers, `y = undo   n = keep`.
    package let prompt: String
    /// What `y` asks the session to do.
    package let yes: [Command]
    /// The notice after `y`.
    package let yesNotice: String
    /// The notice after `n` or Esc.
    package let noNotice: String
    /// The event log's line after `y`, for an action on many rows: what was asked, and of how
    /// many (each row's own events follow).
    package let yesLog: String?

    package init(prompt: String, yes: [Command], yesNotice: String, noNotice: String, yesLog: String? = nil) {
        self.prompt = prompt
        self.yes = yes
        self.yesNotice = yesNotice
        self.noNotice = noNotice
        self.yesLog = yesLog
    }

    /// The answer `key` gives: true for `y`, false for `n` or Esc, nil for any other key.
    static func answer(_ key: Key) -> Bool? {
        switch key {
        case .character("y"), .character("Y"): true
        case .character("n"), .character("N"), .escape: false
        default: nil
        }
    }
}
