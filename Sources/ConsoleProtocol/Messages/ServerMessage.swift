/// A message from the program to a client: one JSON object per line with a `"type"` field, the
/// message's own fields beside it. After `hello`, the program waits for the client's hello, then
/// sends a `snapshot` and every event from then on; `reply` answers a command; `bye` or
/// `refused` come last.
package enum ServerMessage: Sendable {
    /// Who the program is; always first.
    case hello(ServerHello)
    /// Everything watched, now (again, with `missed`, after the client fell behind).
    case snapshot(SnapshotMessage)
    /// A flow event.
    case flow(FlowMessage)
    /// A job queue event.
    case job(JobMessage)
    /// A job store change.
    case storeChange(StoreChangeMessage)
    /// The answer to a command.
    case reply(ReplyMessage)
    /// The program ends the connection.
    case bye(ByeMessage)
    /// The program refuses the client.
    case refused(RefusedMessage)

    /// The `type` field's value.
    package var type: String {
        switch self {
        case .hello: "hello"
        case .snapshot: "snapshot"
        case .flow: "flow"
        case .job: "job"
        case .storeChange: "storeChange"
        case .reply: "reply"
        case .bye: "bye"
        case .refused: "refused"
        }
    }
}

extension ServerMessage: Codable {
    package init(from decoder: any Decoder) throws {
        switch try MessageType.decode(from: decoder) {
        case "hello": self = .hello(try ServerHello(from: decoder))
        case "snapshot": self = .snapshot(try SnapshotMessage(from: decoder))
        case "flow": self = .flow(try FlowMessage(from: decoder))
        case "job": self = .job(try JobMessage(from: decoder))
        case "storeChange": self = .storeChange(try StoreChangeMessage(from: decoder))
        case "reply": self = .reply(try ReplyMessage(from: decoder))
        case "bye": self = .bye(try ByeMessage(from: decoder))
        case "refused": self = .refused(try RefusedMessage(from: decoder))
        case let other: throw MessageType.unknown(other, decoder: decoder)
        }
    }

    package func encode(to encoder: any Encoder) throws {
        try MessageType.encode(type, to: encoder)
        switch self {
        case .hello(let message): try message.encode(to: encoder)
        case .snapshot(let message): try message.encode(to: encoder)
        case .flow(let message): try message.encode(to: encoder)
        case .job(let message): try message.encode(to: encoder)
        case .storeChange(let message): try message.encode(to: encoder)
        case .reply(let message): try message.encode(to: encoder)
        case .bye(let message): try message.encode(to: encoder)
        case .refused(let message): try message.encode(to: encoder)
        }
    }
}

/// The `"type"` field every message carries beside its own fields (in the same JSON object).
enum MessageType {
    private enum CodingKeys: String, CodingKey { case type }

    static func decode(from decoder: any Decoder) throws -> String {
        try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .type)
    }

    static func encode(_ type: String, to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type, forKey: .type)
    }

    static func unknown(_ type: String, decoder: any Decoder) -> UnknownMessageType {
        UnknownMessageType(type: type)
    }
}

/// A message whose `type` this build does not know: a peer of the same major never sends one.
package struct UnknownMessageType: Error, CustomStringConvertible, Sendable {
    /// The type it gave.
    package let type: String

    package var description: String { "unknown message type '\(type)'" }
}
