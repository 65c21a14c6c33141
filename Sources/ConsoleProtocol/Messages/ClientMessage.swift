/// A message from a client to the program, one JSON object per line with a `"type"` field.
package enum ClientMessage: Sendable {
    /// Who the client is and what it speaks; first, answering the program's hello.
    case hello(ClientHello)
    /// A command; answered by exactly one `reply` with the same id.
    case command(CommandMessage)
}

/// `{"type": "hello", "protocol": "1.1", "client": "taskflow attach"}`.
package struct ClientHello: Codable, Sendable, Hashable {
    /// The protocol version, `major.minor`.
    package var protocolVersion: String
    /// What the client is, for the program's log.
    package var client: String

    /// A hello.
    package init(protocolVersion: String = ProtocolVersion.current.description, client: String) {
        self.protocolVersion = protocolVersion
        self.client = client
    }

    private enum CodingKeys: String, CodingKey { case protocolVersion = "protocol", client }
}

/// `{"type": "command", "id": 7, "command": "cancel", "flow": 3}`: see ``ConsoleCommand`` for
/// the commands and their fields.
package struct CommandMessage: Sendable {
    /// Chosen by the client; the reply carries it back.
    package var id: Int
    /// What to do.
    package var command: ConsoleCommand

    /// A command message.
    package init(id: Int, command: ConsoleCommand) {
        self.id = id
        self.command = command
    }
}

/// A command message whose id was readable but whose command was not (an unknown command, a
/// missing field): the program answers it with a failed reply instead of dropping the client,
/// since a newer client may know commands this program does not.
package struct UnreadableCommand: Error, CustomStringConvertible, Sendable {
    /// The command's id.
    package let id: Int
    /// Why it could not be read, in one line.
    package let reason: String

    package var description: String { reason }
}

extension ClientMessage: Codable {
    private enum CodingKeys: String, CodingKey { case id }

    package init(from decoder: any Decoder) throws {
        switch try MessageType.decode(from: decoder) {
        case "hello": self = .hello(try ClientHello(from: decoder))
        case "command":
            let id = try decoder.container(keyedBy: CodingKeys.self).decode(Int.self, forKey: .id)
            do {
                self = .command(CommandMessage(id: id, command: try ConsoleCommand(from: decoder)))
            } catch let error as DecodingError {
                throw UnreadableCommand(id: id, reason: error.oneLine)
            }
        case let other: throw MessageType.unknown(other, decoder: decoder)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .hello(let hello):
            try MessageType.encode("hello", to: encoder)
            try hello.encode(to: encoder)
        case .command(let message):
            try MessageType.encode("command", to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(message.id, forKey: .id)
            try message.command.encode(to: encoder)
        }
    }
}
