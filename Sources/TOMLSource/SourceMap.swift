/// Where each key, table header and array element of a TOML text is written, so a problem found
/// in the parsed values (which carry no positions) can be reported at a line and column.
package struct SourceMap: Sendable {
    private let keys: [TOMLPath: SourcePosition]
    private let values: [TOMLPath: SourcePosition]
    /// What the text holds that TOMLKit must not be given (see ``SourceScanner``), in file order.
    package let problems: [(position: SourcePosition, message: String)]

    /// What `text` holds that TOMLKit must not be given, found by a scan that records no
    /// positions: the check every file gets, cheaper than a whole map.
    package static func problems(in text: String) -> [(position: SourcePosition, message: String)] {
        var scanner = SourceScanner(text, recordingPositions: false)
        scanner.scan()
        return scanner.problems
    }

    /// Scans `text` once, in time linear in its length.
    package init(text: String) {
        var scanner = SourceScanner(text)
        scanner.scan()
        keys = scanner.keys
        values = scanner.values
        problems = scanner.problems
    }

    /// Where `path`'s key is written (for an array element, where the element begins), or else
    /// where its nearest written ancestor is: the enclosing table when the key is missing.
    package func keyPosition(of path: TOMLPath) -> SourcePosition {
        var candidate: TOMLPath? = path
        while let current = candidate {
            if let position = keys[current] { return position }
            candidate = current.parent
        }
        return .start
    }

    /// Where `path`'s value begins, or else where its key is.
    package func valuePosition(of path: TOMLPath) -> SourcePosition {
        values[path] ?? keyPosition(of: path)
    }
}
