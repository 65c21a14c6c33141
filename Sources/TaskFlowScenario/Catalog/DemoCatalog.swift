import Foundation

/// A scenario file shipped in the `demo` folder.
package struct Demo: Sendable, Equatable {
    /// The file name without `.toml`: what `taskflow demo NAME` takes.
    package let name: String
    /// The file.
    package let url: URL

    /// Loads and validates the scenario.
    package func load() throws(ScenarioError) -> Scenario {
        try Scenario.load(contentsOf: url)
    }
}

/// Finds the demos at run time, so a new file in `demo/` is a new demo without rebuilding.
package enum DemoCatalog {
    /// What `taskflow` runs without arguments.
    package static let defaultDemo = "tour"

    /// The `.toml` files in `directory`, the default demo first, then by name. Throws a
    /// ``ScenarioError`` when the directory cannot be listed.
    package static func demos(in directory: URL) throws(ScenarioError) -> [Demo] {
        let files: [URL]
        do {
            files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            throw ScenarioError(file: ScenarioFile.displayName(of: directory), message: "cannot list the demos (no such directory)")
        }
        return files
            .filter { $0.pathExtension == "toml" }
            .map { Demo(name: $0.deletingPathExtension().lastPathComponent, url: $0) }
            .sorted { (rank($0), $0.name) < (rank($1), $1.name) }
    }

    /// 0 for the default demo, listed first; 1 for the others.
    private static func rank(_ demo: Demo) -> Int { demo.name == defaultDemo ? 0 : 1 }

    /// The demo called `name` in `directory`, if there is one.
    package static func demo(named name: String, in directory: URL) throws(ScenarioError) -> Demo? {
        try demos(in: directory).first { $0.name == name }
    }

    /// The `demo` folder (one holding `tour.toml`) in `start` or the nearest folder above it.
    package static func demoFolder(searchingUpFrom start: URL) -> URL? {
        var directory = start.standardizedFileURL
        while true {
            let candidate = directory.appending(path: "demo", directoryHint: .isDirectory)
            if FileManager.default.fileExists(atPath: candidate.appending(path: "\(defaultDemo).toml").path(percentEncoded: false)) {
                return candidate
            }
            let parent = directory.deletingLastPathComponent()
            if parent.path(percentEncoded: false) == directory.path(percentEncoded: false) { return nil }
            directory = parent
        }
    }

    /// The demo folder for a command line: searched upwards from the executable's folder (a
    /// `swift run` build sits inside the package), then from the current directory.
    package static func demoFolder(
        executable: URL? = Bundle.main.executableURL,
        currentDirectory: URL = URL(filePath: FileManager.default.currentDirectoryPath, directoryHint: .isDirectory)
    ) -> URL? {
        let starts = [executable?.deletingLastPathComponent(), currentDirectory].compactMap { $0 }
        return starts.lazy.compactMap(demoFolder(searchingUpFrom:)).first
    }
}
