import Foundation

/// How the command line names a scenario file (or folder) in messages.
enum ScenarioFile {
    /// The file's name as the user wrote it: a relative path stays relative.
    static func displayName(of url: URL) -> String {
        url.isFileURL ? url.relativePath : url.absoluteString
    }
}
