import Foundation

/// Where the package's files are, found from this source file's path so tests work from any
/// working directory.
enum Paths {
    static let packageRoot = URL(filePath: #filePath)
        .deletingLastPathComponent()  // Support
        .deletingLastPathComponent()  // TaskFlowScenarioTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()

    static let demo = packageRoot.appending(path: "demo", directoryHint: .isDirectory)

    static func fixture(_ name: String) -> URL {
        // `Fixtures` is copied as a resource folder; reached through the module's bundle.
        Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")
            ?? packageRoot.appending(path: "Tests/TaskFlowScenarioTests/Fixtures/\(name)")
    }
}
