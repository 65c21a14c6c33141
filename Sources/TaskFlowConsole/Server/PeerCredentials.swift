import Foundation
import NIOCore

/// Who is at the other end of a Unix-domain socket, as the kernel vouches (`SO_PEERCRED`).
struct PeerCredentials: Sendable {
    // Laid out as Linux's `struct ucred`, which Glibc's module does not export.
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0

    /// `SO_PEERCRED` (Linux).
    private static let option = NIOBSDSocket.Option(rawValue: 17)

    /// The credentials of the peer of `channel`, an accepted Unix-domain connection.
    static func of(_ channel: any Channel) -> EventLoopFuture<PeerCredentials> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeFailedFuture(ChannelError.operationUnsupported)
        }
        return provider.unsafeGetSocketOption(level: .socket, name: option)
    }

    /// Only the user the program runs as, and root, may watch and steer it.
    var isAllowed: Bool { uid == getuid() || uid == 0 }
}
