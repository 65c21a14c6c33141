/// Why the terminal dashboard cannot start. Each has a one-line message for stderr.
package enum TerminalError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Standard input is not a terminal, so keys cannot be read.
    case inputNotATerminal
    /// `TERM` is unset or names a terminal the terminfo database does not know.
    case unknownTerminal(String)
    /// The terminal cannot move its cursor to a given cell (`TERM=dumb`, hardcopy terminals), so
    /// the dashboard cannot be drawn on it.
    case cannotAddressCursor(String)

    package var description: String {
        switch self {
        case .inputNotATerminal:
            "standard input is not a terminal: keys cannot be read (use --headless)"
        case .unknownTerminal(let name) where name.isEmpty:
            "TERM is not set: cannot drive the terminal (set TERM, e.g. TERM=xterm-256color, or use --headless)"
        case .unknownTerminal(let name):
            "unknown terminal type '\(name)' (TERM): no terminfo entry (set TERM, e.g. TERM=xterm-256color, or use --headless)"
        case .cannotAddressCursor(let name):
            "terminal type '\(name)' (TERM) cannot move the cursor, so the dashboard cannot be drawn (use --headless, or set TERM, e.g. TERM=xterm-256color)"
        }
    }
}
