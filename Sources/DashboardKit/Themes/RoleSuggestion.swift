import TOMLSource

/// What an unknown style role is told: the closest known role when it looks like a typo, so the
/// message stays one short line instead of listing all the roles.
enum RoleSuggestion {
    /// "unknown style role 'titel' (did you mean 'title'?)", or a pointer to where every role
    /// is written when nothing is close.
    static func message(forUnknown name: String) -> String {
        let shown = "unknown style role '\(name.echoed())'"
        guard let near = closestRole(to: name) else {
            return shown + "; every role is set in Themes/default.toml"
        }
        return shown + " (did you mean '\(near)'?)"
    }

    /// The role within two edits of `name`, the nearest first; nil when none is that close.
    static func closestRole(to name: String) -> String? {
        let candidate = Array(name.lowercased().utf8)
        var best: (role: String, distance: Int)?
        for role in StyleRole.allCases {
            let distance = distance(candidate, Array(role.rawValue.utf8), atMost: best.map { $0.distance - 1 } ?? 2)
            if let distance { best = (role.rawValue, distance) }
        }
        return best?.role
    }

    /// The Levenshtein distance (insertions, deletions, substitutions) when it is at most
    /// `limit`, else nil. A length gap above the limit, or a row whose every cell is above it,
    /// ends the comparison early, so a long or far name costs little.
    private static func distance(_ lhs: [UInt8], _ rhs: [UInt8], atMost limit: Int) -> Int? {
        guard limit >= 0, abs(lhs.count - rhs.count) <= limit else { return nil }
        var previous = Array(0...rhs.count)
        var current = previous
        for row in 0..<lhs.count {
            current[0] = row + 1
            var rowMinimum = current[0]
            for column in 0..<rhs.count {
                let substitution = previous[column] + (lhs[row] == rhs[column] ? 0 : 1)
                current[column + 1] = min(previous[column + 1] + 1, current[column] + 1, substitution)
                rowMinimum = min(rowMinimum, current[column + 1])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[rhs.count] <= limit ? previous[rhs.count] : nil
    }
}
