import Foundation

/// The folder the example works in: `source/`, the files as they should be, and `library/`, the
/// copy the sync makes match them. A folder without `source/` gets sample files: eight photos to
/// copy, two of them in the library already, and three old notes the sync deletes.
struct SyncFolder: Sendable {
    let root: URL
    var source: URL { root.appending(path: "source") }
    var library: URL { root.appending(path: "library") }

    /// Works in `folder`, or in a fresh temporary folder when nil.
    init(_ folder: URL?) throws {
        root = folder ?? FileManager.default.temporaryDirectory.appending(path: "folder-sync-\(UUID().uuidString.prefix(8))")
        let files = FileManager.default
        if !files.fileExists(atPath: source.path) { try fillWithSamples() }
        try files.createDirectory(at: library, withIntermediateDirectories: true)
    }

    /// The names of the regular files in `folder`, sorted.
    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func fillWithSamples() throws {
        let files = FileManager.default
        try files.createDirectory(at: source, withIntermediateDirectories: true)
        try files.createDirectory(at: library, withIntermediateDirectories: true)
        for number in 1...8 {
            let name = "photo-0\(number).jpg"
            let bytes = Data((0..<(2048 * number)).map { UInt8(truncatingIfNeeded: $0 &* number) })
            try bytes.write(to: source.appending(path: name))
            if number <= 2 { try bytes.write(to: library.appending(path: name)) }
        }
        for number in 1...3 {
            try Data("notes \(number), from before the sync\n".utf8).write(to: library.appending(path: "old-notes-\(number).txt"))
        }
    }
}
