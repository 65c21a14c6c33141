#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file the user named (a scenario, a theme) into text, with a one-line diagnostic for
/// each way that can fail: missing, unreadable, not a regular file (a directory, `/dev/null`, a
/// FIFO, which would otherwise block or read as nothing), empty, larger than
/// ``SourceLimits/fileBytes``, not UTF-8 or holding a NUL character. The last two name the line
/// and column of the first bad byte, because TOMLKit would otherwise cut the text at a NUL
/// silently and never see what follows.
package enum SourceFile {
    /// The text of the file at `path`; `file` names it in diagnostics and `kind` ("scenario
    /// file") says what a directory given in its place is not.
    package static func read(path: String, file: String, kind: String) throws(SourceProblems) -> String {
        // O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then refuses it.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { throw SourceProblems(file: file, openFailure(errno)) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw SourceProblems(file: file, "cannot be read (\(reason(errno)))") }
        let type = status.st_mode & S_IFMT
        if type == S_IFDIR { throw SourceProblems(file: file, "is a directory, not a \(kind)") }
        guard type == S_IFREG else {
            throw SourceProblems(file: file, "is not a regular file but \(description(ofType: type)); give the path of a \(kind)")
        }
        guard status.st_size <= SourceLimits.fileBytes else {
            throw SourceProblems(file: file, "is \(mebibytes(Int(status.st_size))), more than the \(mebibytes(SourceLimits.fileBytes)) a \(kind) may have")
        }
        let bytes = try contents(of: descriptor, size: Int(status.st_size), file: file)
        guard !bytes.isEmpty else { throw SourceProblems(file: file, "is empty") }
        return try text(bytes, file: file)
    }

    /// `bytes` as text, or a diagnostic at the first byte that is not UTF-8 or is NUL.
    package static func text(_ bytes: [UInt8], file: String) throws(SourceProblems) -> String {
        if !bytes.contains(0), let text = String(validating: bytes, as: UTF8.self) { return text }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var position = SourcePosition.start
        while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let encoded):
                let scalar = Unicode.UTF8.decode(encoded)
                if scalar == "\0" {
                    throw SourceProblems(file: file, at: position, "holds a NUL character (is it a binary file?); TOML text cannot contain one")
                }
                position = scalar == "\n" ? SourcePosition(line: position.line + 1, column: 1)
                    : SourcePosition(line: position.line, column: position.column + 1)
            case .error:
                throw SourceProblems(file: file, at: position, "is not UTF-8 text (an invalid byte here)")
            case .emptyInput:
                // Only reached if the fast check was wrong, which it is not: keep the text.
                return String(decoding: bytes, as: UTF8.self)
            }
        }
    }

    private static func contents(of descriptor: Int32, size: Int, file: String) throws(SourceProblems) -> [UInt8] {
        // One byte more than announced, so a file growing meanwhile is still bounded.
        let capacity = min(size, SourceLimits.fileBytes) + 1
        var bytes = [UInt8](repeating: 0, count: capacity)
        var count = 0
        while count < capacity {
            let got = bytes.withUnsafeMutableBytes { buffer in
                // Sound: `capacity` is at least 1, so the buffer has a base address.
                systemRead(descriptor, buffer.baseAddress! + count, capacity - count)
            }
            if got == 0 { break }
            if got < 0 {
                if errno == EINTR { continue }
                throw SourceProblems(file: file, "cannot be read (\(reason(errno)))")
            }
            count += got
        }
        guard count <= SourceLimits.fileBytes else {
            throw SourceProblems(file: file, "is more than the \(mebibytes(SourceLimits.fileBytes)) a file may have")
        }
        return Array(bytes[..<count])
    }

    /// `read(2)`, named apart from ``read(path:file:kind:)``.
    private static func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.read(descriptor, buffer, count)
        #else
        Darwin.read(descriptor, buffer, count)
        #endif
    }

    private static func openFailure(_ code: Int32) -> String {
        code == ENOENT ? "no such file" : "cannot be read (\(reason(code)))"
    }

    /// The system's reason, like "Permission denied".
    private static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    private static func description(ofType type: mode_t) -> String {
        switch type {
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFIFO: "a FIFO (a pipe)"
        case S_IFSOCK: "a socket"
        default: "a special file"
        }
    }

    private static func mebibytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 20) / 2) >> 20
        return tenths % 10 == 0 ? "\(tenths / 10) MiB" : "\(tenths / 10).\(tenths % 10) MiB"
    }
}
