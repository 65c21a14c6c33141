/// The attach protocol's version, `major.minor`. Peers whose majors differ cannot talk; a newer
/// minor only adds fields and messages, which an older peer ignores.
package struct ProtocolVersion: Sendable, Hashable, CustomStringConvertible {
    /// Changes when a message changes incompatibly.
    package let major: Int
    /// Changes when fields or messages are added.
    package let minor: Int

    /// The version this build speaks.
    /// 1.1 added the times of a snapshot's flows and steps.
    package static let current = ProtocolVersion(major: 1, minor: 1)

    /// A version.
    package init(major: Int, minor: Int) {
        self.major = major
        self.minor = minor
    }

    /// Parses "1.0"; nil for anything else.
    package init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let major = Int(parts[0]), let minor = Int(parts[1]), major >= 0, minor >= 0 else {
            return nil
        }
        self.init(major: major, minor: minor)
    }

    /// "1.0".
    package var description: String { "\(major).\(minor)" }

    /// Why a peer announcing `peerText` cannot talk to this build, or nil when it can. `peer`
    /// and `own` name the two sides in the message: "program speaks protocol 2.0, this client 1.0".
    package static func mismatch(peer peerText: String, peerName: String, ownName: String) -> String? {
        guard let peer = ProtocolVersion(peerText) else {
            return "\(peerName) speaks protocol '\(peerText)', which is not a version; this \(ownName) speaks \(current)"
        }
        guard peer.major != current.major else { return nil }
        return "\(peerName) speaks protocol \(peer), this \(ownName) \(current)"
    }
}
