/// Where each key, table header and array element of a TOML text is written, so a problem found
/// in the parsed values (which carry no positions) can be reported at a line and column.
struct SourceMap: Sendable {
    private let keys: [TOMLPath: SourcePosition]
    private let values: [TOMLPath: SourcePosition]

    /// Scans `text`, which should be valid TOML (the scanner never fails, but on broken text its
    /// positions are only as good as its guesses).
    init(text: String) {
        var scanner = SourceScanner(text)
        scanner.scan()
        keys = scanner.keys
        values = scanner.values
    }

    /// Where `path`'s key is written (for an array element, where the element begins), or else
    /// where its nearest written ancestor is: the enclosing table when the key is missing.
    func keyPosition(of path: TOMLPath) -> SourcePosition {
        var candidate: TOMLPath? = path
        while let current = candidate {
            if let position = keys[current] { return position }
            candidate = current.parent
        }
        return .start
    }

    /// Where `path`'s value begins, or else where its key is.
    func valuePosition(of path: TOMLPath) -> SourcePosition {
        values[path] ?? keyPosition(of: path)
    }
}
