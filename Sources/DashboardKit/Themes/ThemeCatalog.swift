import Foundation
import TOMLSource

/// Finds theme files and loads them by name or path. Names are looked up in the first theme
/// folder that exists among ``directories``.
package struct ThemeCatalog: Sendable {
    /// Folders searched for `NAME.toml`, in order.
    package let directories: [String]

    /// A catalog searching `directories`.
    package init(directories: [String]) {
        self.directories = directories
    }

    /// The usual places: `$TASKFLOW_THEMES`, `./Themes`, and a `Themes` folder beside or above
    /// the executable (which finds the package's `Themes/` from `.build/…/taskflow`).
    package static func standard(executable: String = CommandLine.arguments.first ?? "") -> ThemeCatalog {
        var directories: [String] = []
        if let custom = ProcessInfo.processInfo.environment["TASKFLOW_THEMES"], !custom.isEmpty { directories.append(custom) }
        directories.append(FileManager.default.currentDirectoryPath + "/Themes")
        var folder = URL(fileURLWithPath: executable).resolvingSymlinksInPath().deletingLastPathComponent()
        while folder.path != "/" {
            directories.append(folder.appendingPathComponent("Themes").path)
            folder.deleteLastPathComponent()
        }
        return ThemeCatalog(directories: directories)
    }

    /// The folder in use: the first of ``directories`` that holds a theme file.
    package var directory: String? {
        directories.first { !Self.themeFiles(in: $0).isEmpty }
    }

    /// The available theme names, sorted.
    package var names: [String] {
        directory.map(Self.themeFiles).map { $0.map { String($0.dropLast(".toml".count)) }.sorted() } ?? []
    }

    /// Loads a theme given by name (`light`) or by path (`./my.toml`, anything with a `/` or
    /// ending in `.toml`). The file is read with the checks scenario files get (a regular file,
    /// at most 16 MiB, UTF-8 without NUL), and every problem in it is reported at once.
    package func load(_ nameOrPath: String) throws(ThemeError) -> Theme {
        let isPath = nameOrPath.contains("/") || nameOrPath.hasSuffix(".toml")
        let file: String
        if isPath {
            file = nameOrPath
        } else if let directory {
            file = directory + "/" + nameOrPath + ".toml"
            guard FileManager.default.fileExists(atPath: file) else {
                throw ThemeError(file: nameOrPath.echoed(), message: "no such theme (available: \(names.joined(separator: ", ")))")
            }
        } else {
            throw ThemeError(file: nameOrPath.echoed(), message: "no theme folder found (looked in \(directories.prefix(3).joined(separator: ", ")), ...)")
        }
        let source: String
        do {
            source = try SourceFile.read(path: file, file: file, kind: "theme file")
        } catch {
            throw ThemeError(error.diagnostics)
        }
        let name = URL(fileURLWithPath: file).deletingPathExtension().lastPathComponent
        return try ThemeParser().parse(source, name: name, file: file)
    }

    /// The theme after `name` in ``names`` order, wrapping around (for the `t` key).
    package func theme(after name: String) throws(ThemeError) -> Theme {
        let names = names
        guard !names.isEmpty else { throw ThemeError(file: "Themes", message: "no other theme available") }
        let next = names.firstIndex(of: name).map { (names.index(after: $0)) % names.count } ?? 0
        return try load(names[next])
    }

    private static func themeFiles(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".toml") }
    }
}
