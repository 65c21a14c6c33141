import TOMLSource

/// Reads a theme from TOML. Each style role is a (dotted) key whose value is a colour or an
/// inline table of colours and attributes:
///
/// ```toml
/// header = { fg = "black", bg = "cyan", bold = true }
/// selection = { reverse = true }
/// [status]
/// running = "green"            # shorthand for { fg = "green" }
/// failed = { fg = "#ff5f5f", bold = true }
/// ```
///
/// Colours are names (`red`, `bright-blue`, `default`), palette indexes 0–255, or `#RRGGBB`.
/// A theme file is read like a scenario file (same limits, same checks before TOMLKit), and
/// every mistake in it is reported at once, each at its `file:line:column`, in a ``ThemeError``.
package struct ThemeParser: Sendable {
    /// The attributes a style table may set.
    static let attributes = ["fg", "bg", "bold", "underline", "reverse", "dim"]

    /// Keys a theme may carry that are no style: they describe it.
    private static let informative: Set = ["name", "description"]

    /// A parser.
    package init() {}

    /// Parses `source`, read from `file` (used in errors), as the theme `name`.
    package func parse(_ source: String, name: String, file: String) throws(ThemeError) -> Theme {
        let document: TOMLDocument
        do {
            document = try TOMLDocument(parsing: source, file: file)
        } catch {
            throw ThemeError(error.diagnostics)
        }
        let log = IssueLog()
        var styles: [StyleRole: TextStyle] = [:]
        collect(document.root, at: .root, log: log, into: &styles)
        guard log.issues.isEmpty else { throw ThemeError(document.diagnostics(log, file: file)) }
        return Theme(name: name, styles: styles)
    }

    /// Walks tables: a key naming a role holds its style; a table named like a group of roles
    /// (`[status]`) holds more; anything else is reported.
    private func collect(_ table: [String: TOMLNode], at path: TOMLPath, log: IssueLog, into styles: inout [StyleRole: TextStyle]) {
        for (key, value) in table {
            let keyPath = path.appending(key)
            let dotted = keyPath.dottedKeys
            if let role = StyleRole(rawValue: dotted) {
                styles[role] = style(value, at: keyPath, log: log)
            } else if case .table(let nested) = value, StyleRole.allCases.contains(where: { $0.rawValue.hasPrefix(dotted + ".") }) {
                collect(nested, at: keyPath, log: log, into: &styles)
            } else if path == .root, Self.informative.contains(key) {
                continue
            } else {
                log.key(keyPath, RoleSuggestion.message(forUnknown: dotted))
            }
        }
    }

    /// The style `value` describes: a colour alone is the foreground.
    private func style(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> TextStyle {
        guard case .table(let fields) = value else { return TextStyle(foreground: color(value, at: path, log: log)) }
        var style = TextStyle()
        for (key, field) in fields {
            set(key, field, of: &style, at: path.appending(key), log: log)
        }
        return style
    }

    /// Sets one attribute of `style` from a field of its table.
    private func set(_ key: String, _ field: TOMLNode, of style: inout TextStyle, at path: TOMLPath, log: IssueLog) {
        switch key {
        case "fg": style.foreground = color(field, at: path, log: log)
        case "bg": style.background = color(field, at: path, log: log)
        case "bold": style.bold = flag(field, at: path, log: log)
        case "underline": style.underline = flag(field, at: path, log: log)
        case "reverse": style.reverse = flag(field, at: path, log: log)
        case "dim": style.dim = flag(field, at: path, log: log)
        default:
            log.key(path, "unknown attribute '\(key.echoed())'; use \(Self.attributes.joined(separator: ", "))")
        }
    }

    private func color(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> ThemeColor? {
        let name = path.dottedKeys.echoed()
        switch value {
        case .integer(let index):
            guard let color = ThemeColor(index: index) else {
                log.value(path, "'\(name)': colour index \(index) is outside 0-255")
                return nil
            }
            return color
        case .string(let text):
            guard let color = ThemeColor(text: text) else {
                log.value(path, "'\(name)': unknown colour \"\(text.echoed())\"; use a name like \"bright-red\", 0-255 or \"#RRGGBB\"")
                return nil
            }
            return color
        default:
            log.value(path, "'\(name)': a colour is a name, an index 0-255 or \"#RRGGBB\", not \(value.typeDescription)")
            return nil
        }
    }

    private func flag(_ value: TOMLNode, at path: TOMLPath, log: IssueLog) -> Bool {
        guard case .bool(let flag) = value else {
            log.value(path, "'\(path.dottedKeys.echoed())' must be true or false, not \(value.typeDescription)")
            return false
        }
        return flag
    }
}
