import Foundation

/// Messages to and from JSON lines: one object per line, UTF-8, no newline inside.
package enum MessageCoding {
    /// The message as one line, its `\n` included.
    package static func line(_ message: some Encodable) throws -> Data {
        var data = try encoder().encode(message)
        data.append(UInt8(ascii: "\n"))
        return data
    }

    /// A server message from one line (without its end).
    package static func serverMessage(_ line: some Collection<UInt8>) throws -> ServerMessage {
        try JSONDecoder().decode(ServerMessage.self, from: Data(line))
    }

    /// A client message from one line (without its end). Throws ``UnreadableCommand`` for a
    /// command message whose id could be read.
    package static func clientMessage(_ line: some Collection<UInt8>) throws -> ClientMessage {
        try JSONDecoder().decode(ClientMessage.self, from: Data(line))
    }

    /// A new encoder per call: JSONEncoder is not Sendable, and encoding happens on many threads.
    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        // JSON escapes keep every line free of raw newlines; slashes need no escaping.
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }
}
