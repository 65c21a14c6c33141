import Foundation
import TaskFlowStore

/// Takes a copied file back out of the library: the stored revert of a copy step, journaled
/// before the copy starts. Idempotent, and a copy that never ran or ran in part is fine: a
/// file that is not there is already reverted.
struct RemoveCopiedFile: StoredRevert {
    static let kind = "durable-copy.remove-file"
    let path: String

    func run() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        try FileManager.default.removeItem(atPath: path)
    }
}

/// Takes an album's folder back out of the library, once its files are out (they are reverted
/// first: they were copied after it was made). A folder that is not there is already reverted;
/// one that holds something else is refused rather than deleted with what it holds.
struct RemoveAlbumFolder: StoredRevert {
    static let kind = "durable-copy.remove-folder"
    let path: String

    func run() throws {
        guard FileManager.default.fileExists(atPath: path) else { return }
        let left = try CopyFolder.names(in: URL(fileURLWithPath: path))
        guard left.isEmpty else { throw NotEmpty(path: path, left: left) }
        try FileManager.default.removeItem(atPath: path)
    }

    /// The folder holds files no step of the flow copied.
    struct NotEmpty: Error, CustomStringConvertible {
        let path: String
        let left: [String]
        var description: String { "\(path) is not empty (\(left.joined(separator: ", "))): left as it is" }
    }
}
