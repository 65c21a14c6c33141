import Foundation

/// Reading a scenario file from disk, with a clear one-line error for each way it can fail.
enum ScenarioFile {
    /// The file's name as the user wrote it: a relative path stays relative.
    static func displayName(of url: URL) -> String {
        url.isFileURL ? url.relativePath : url.absoluteString
    }

    /// The file's text. Fails when the file is missing, is a directory, cannot be read, or is
    /// not UTF-8 text.
    static func read(_ url: URL) throws(ScenarioError) -> String {
        let name = displayName(of: url)
        let path = url.path(percentEncoded: false)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw ScenarioError(file: name, message: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw ScenarioError(file: name, message: "is a directory, not a scenario file")
        }
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ScenarioError(file: name, message: "cannot be read (\(reason(error)))")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ScenarioError(file: name, message: "is not UTF-8 text")
        }
        return text
    }

    /// The system's reason (like "Permission denied") rather than Foundation's long sentence.
    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
           let code = POSIXErrorCode(rawValue: Int32(underlying.code)) {
            return String(cString: strerror(code.rawValue))
        }
        return nsError.localizedDescription
    }
}
