import Foundation

/// The folder `taskflow demo durable-copy` works in: `source/`, albums of photos (a folder
/// each), and `library/`, where each album is copied whole — or not at all. A folder without
/// `source/` gets sample albums.
struct CopyFolder: Sendable {
    let root: URL
    var source: URL { root.appending(path: "source") }
    var library: URL { root.appending(path: "library") }

    /// How many sample albums, and photos in each, a new folder gets.
    static let sampleAlbums = 4, samplePhotos = 5

    /// Works in `root`, made (with sample albums) if needed.
    init(_ root: URL) throws {
        self.root = root
        if !FileManager.default.fileExists(atPath: source.path) { try fillWithSamples() }
        try FileManager.default.createDirectory(at: library, withIntermediateDirectories: true)
    }

    /// The albums of `source/` that `library/` does not hold, in name order: what a run copies.
    func albumsToCopy() throws -> [String] {
        let copied = Set(try Self.names(in: library))
        return try Self.names(in: source).filter { !copied.contains($0) }
    }

    /// The photos of `album` in `source/`, in name order.
    func photos(in album: String) throws -> [String] {
        try Self.names(in: source.appending(path: album))
    }

    /// The visible entries of `folder`, sorted.
    static func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasPrefix(".") }.sorted()
    }

    private func fillWithSamples() throws {
        for album in 1...Self.sampleAlbums {
            let folder = source.appending(path: "album-\(album)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for photo in 1...Self.samplePhotos {
                let bytes = Data((0..<(4096 * photo)).map { UInt8(truncatingIfNeeded: $0 &* (album + photo)) })
                try bytes.write(to: folder.appending(path: "photo-\(photo).jpg"))
            }
        }
    }
}
