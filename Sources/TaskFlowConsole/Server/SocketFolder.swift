import Foundation
import NIOCore
import NIOPosix

/// The socket's folder and file, made safe before the console listens: the folder is the
/// user's own and nobody else can write to it, and the socket path is free.
enum SocketFolder {
    /// Creates the folder of `socketPath` (0700) or checks the one there; then removes a stale
    /// socket a dead console left. Throws if the folder is a symbolic link, not a folder, owned
    /// by another user, or writable by group or others, or if a live console serves the path.
    static func prepare(socketPath: String) async throws {
        let folder = (socketPath as NSString).deletingLastPathComponent
        try prepareFolder(folder.isEmpty ? "." : folder)
        try await removeStaleSocket(at: socketPath)
    }

    private static func prepareFolder(_ folder: String) throws {
        var info = stat()
        if lstat(folder, &info) != 0 {
            guard errno == ENOENT else { throw ConsoleServerError(path: folder, reason: "cannot be read: \(systemError())") }
            guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                throw ConsoleServerError(path: folder, reason: "cannot be created: \(systemError())")
            }
            // Checked again below: another process may have made it first.
            guard lstat(folder, &info) == 0 else { throw ConsoleServerError(path: folder, reason: "vanished: \(systemError())") }
        }
        try check(info, of: folder)
    }

    /// The folder must be the user's own and closed to others: whoever can write in it can swap
    /// the socket for one of their own.
    private static func check(_ info: stat, of folder: String) throws {
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK { throw ConsoleServerError(path: folder, reason: "is a symbolic link; refusing to serve there") }
        guard type == S_IFDIR else { throw ConsoleServerError(path: folder, reason: "is not a folder") }
        guard info.st_uid == getuid() else {
            throw ConsoleServerError(path: folder, reason: "belongs to uid \(info.st_uid), not to this user (uid \(getuid()))")
        }
        let mode = info.st_mode & 0o777
        guard mode & 0o022 == 0 else {
            throw ConsoleServerError(
                path: folder, reason: "is writable by group or others (mode \(String(mode, radix: 8))); it must be 0700")
        }
    }

    /// A socket file nobody answers on is a dead console's: removed. One that answers is a
    /// live console's: an error. Anything else at the path is left alone: an error.
    private static func removeStaleSocket(at path: String) async throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard info.st_mode & S_IFMT == S_IFSOCK else {
            throw ConsoleServerError(path: path, reason: "exists and is not a socket")
        }
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .connect(unixDomainSocketPath: path).get()
            try? await channel.close()
            throw ConsoleServerError(path: path, reason: "is served by a running console already")
        } catch let error as IOError where error.errnoCode == ECONNREFUSED {
            guard unlink(path) == 0 || errno == ENOENT else {
                throw ConsoleServerError(path: path, reason: "is a stale socket that cannot be removed: \(systemError())")
            }
        }
    }

    static func systemError() -> String { String(cString: strerror(errno)) }
}
