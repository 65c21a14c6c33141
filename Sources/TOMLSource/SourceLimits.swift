/// The sizes an input file may have. Each keeps reading a file fast and bounded (everything is
/// linear in the file's size below them) and is far above what a hand-written file needs; a file
/// beyond one gets a diagnostic at the place it crosses it, never minutes of work.
package enum SourceLimits {
    /// The largest file read: 16 MiB, room for 100,000 one-step flows.
    package static let fileBytes = 16 << 20

    /// How deep keys, tables and arrays may nest: 100 levels. Each nested step costs two (its
    /// `steps` key and its place in that array), so steps nest about 50 deep.
    package static let nesting = 100

    /// How many elements one array (or array of tables) may hold: 100,000, so a scenario has at
    /// most 100,000 flows. Checked while scanning, so 16 MiB of `[[flow]]` headers is refused in
    /// a second instead of being parsed into millions of tables.
    package static let arrayElements = 100_000

    /// How many diagnostics an error prints before saying how many more there are.
    package static let reportedDiagnostics = 50

    /// How many characters of a user's value a message echoes before cutting it with "…".
    package static let echoedCharacters = 60
}
