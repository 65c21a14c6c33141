import TOMLKit

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
/// Every mistake is a ``ThemeError`` naming the file, the line and the key.
public struct ThemeParser: Sendable {
    /// The attributes a style table may set.
    static let attributes = ["fg", "bg", "bold", "underline", "reverse", "dim"]

    /// A parser.
    public init() {}

    /// Parses `source`, read from `file` (used in errors), as the theme `name`.
    public func parse(_ source: String, name: String, file: String) throws(ThemeError) -> Theme {
        let table: TOMLTable
        do {
            table = try TOMLTable(string: source)
        } catch let error as TOMLParseError {
            throw ThemeError(file: file, line: error.source.begin.line, message: "invalid TOML: \(error.description)")
        } catch {
            throw ThemeError(file: file, message: "invalid TOML: \(error)")
        }
        let context = Context(file: file, locator: KeyLocator(source: source))
        var styles: [StyleRole: TextStyle] = [:]
        var errors: [ThemeError] = []
        collect(table, path: [], context: context, into: &styles, errors: &errors)
        // TOMLKit iterates keys alphabetically; the user reads the file top-down, so the error
        // to fix first is the one nearest the top.
        if let first = errors.min(by: { ($0.line ?? .max) < ($1.line ?? .max) }) { throw first }
        return Theme(name: name, styles: styles)
    }

    private struct Context {
        let file: String
        let locator: KeyLocator

        func error(_ path: [String], _ message: String) -> ThemeError {
            ThemeError(file: file, line: locator.line(of: path), key: path.joined(separator: "."), message: message)
        }
    }

    /// Walks tables: a key naming a role holds its style; any other table is a prefix (`[status]`).
    /// Every bad key adds its error to `errors`, so the caller can report the first in the file.
    private func collect(
        _ table: TOMLTable, path: [String], context: Context,
        into styles: inout [StyleRole: TextStyle], errors: inout [ThemeError]
    ) {
        for (key, value) in table {
            let keyPath = path + [key]
            if let role = StyleRole(rawValue: keyPath.joined(separator: ".")) {
                styles[role] = style(value, path: keyPath, context: context, errors: &errors)
            } else if let nested = value.table, StyleRole.allCases.contains(where: { $0.rawValue.hasPrefix(key + ".") }) {
                collect(nested, path: keyPath, context: context, into: &styles, errors: &errors)
            } else if path.isEmpty, key == "name" || key == "description" {
                continue  // Informative keys a theme may carry.
            } else {
                errors.append(context.error(keyPath, "unknown style role (known: \(StyleRole.allCases.map(\.rawValue).joined(separator: ", ")))"))
            }
        }
    }

    /// The style `value` describes; each bad field adds its error to `errors` (a table written
    /// as `[status.running]` spans lines, and its fields come alphabetically, not in file order).
    private func style(
        _ value: any TOMLValueConvertible, path: [String], context: Context, errors: inout [ThemeError]
    ) -> TextStyle {
        guard let table = value.table else {
            do {
                return TextStyle(foreground: try color(value, path: path, context: context))
            } catch {
                errors.append(error)
                return TextStyle()
            }
        }
        var style = TextStyle()
        for (key, field) in table {
            do {
                try set(key, field, of: &style, path: path + [key], context: context)
            } catch {
                errors.append(error)
            }
        }
        return style
    }

    /// Sets one attribute of `style` from a field of its table.
    private func set(
        _ key: String, _ field: any TOMLValueConvertible, of style: inout TextStyle, path: [String], context: Context
    ) throws(ThemeError) {
        switch key {
        case "fg": style.foreground = try color(field, path: path, context: context)
        case "bg": style.background = try color(field, path: path, context: context)
        case "bold": style.bold = try flag(field, path: path, context: context)
        case "underline": style.underline = try flag(field, path: path, context: context)
        case "reverse": style.reverse = try flag(field, path: path, context: context)
        case "dim": style.dim = try flag(field, path: path, context: context)
        default: throw context.error(path, "unknown attribute (use \(Self.attributes.joined(separator: ", ")))")
        }
    }

    private func color(_ value: any TOMLValueConvertible, path: [String], context: Context) throws(ThemeError) -> ThemeColor {
        if value.type == .int, let index = value.int {
            guard let color = ThemeColor(index: index) else {
                throw context.error(path, "colour index \(index) is outside 0-255")
            }
            return color
        }
        guard let text = value.string else {
            throw context.error(path, "a colour must be a name, an index 0-255 or \"#RRGGBB\"")
        }
        guard let color = ThemeColor(text: text) else {
            throw context.error(path, "unknown colour \"\(text)\" (use a name like \"bright-red\", an index 0-255 or \"#RRGGBB\")")
        }
        return color
    }

    private func flag(_ value: any TOMLValueConvertible, path: [String], context: Context) throws(ThemeError) -> Bool {
        guard value.type == .bool, let flag = value.bool else {
            throw context.error(path, "must be true or false")
        }
        return flag
    }
}
