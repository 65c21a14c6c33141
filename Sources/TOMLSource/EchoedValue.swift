import TaskFlowSupport

extension String {
    /// The text as an error message echoes a user's value: control characters escaped and, past
    /// `limit` characters, cut with "…", so a 100,000-character value still makes a short line.
    package func echoed(limit: Int = SourceLimits.echoedCharacters) -> String {
        let escaped = escapingControlCharacters
        guard escaped.count > limit else { return escaped }
        return escaped.prefix(limit) + "…"
    }
}
