import Foundation

/// The first message of every connection, from the program: who it is and what it speaks.
/// `{"type": "hello", "protocol": "1.1", "program": "importer", "pid": 4242, "title": "Importer",
/// "started": "2025-01-01T10:00:00Z", "readOnly": false}`.
package struct ServerHello: Codable, Sendable, Hashable {
    /// The protocol version, `major.minor`.
    package var protocolVersion: String
    /// The program's process name.
    package var program: String
    /// Its process id.
    package var pid: Int32
    /// The title it gave its console.
    package var title: String
    /// When its feed started (wall clock, ISO 8601 on the wire): a message's `time` counts from here.
    package var started: Date
    /// Whether it refuses commands.
    package var readOnly: Bool

    /// A hello.
    package init(protocolVersion: String = ProtocolVersion.current.description, program: String, pid: Int32,
                 title: String, started: Date, readOnly: Bool) {
        self.protocolVersion = protocolVersion
        self.program = program
        self.pid = pid
        self.title = title
        self.started = started
        self.readOnly = readOnly
    }

    private enum CodingKeys: String, CodingKey {
        case protocolVersion = "protocol", program, pid, title, started, readOnly
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        protocolVersion = try c.decode(String.self, forKey: .protocolVersion)
        program = try c.decode(String.self, forKey: .program)
        pid = try c.decode(Int32.self, forKey: .pid)
        title = try c.decode(String.self, forKey: .title)
        let text = try c.decode(String.self, forKey: .started)
        guard let date = ISO8601.date(from: text) else {
            throw DecodingError.dataCorruptedError(forKey: .started, in: c, debugDescription: "not an ISO 8601 time: '\(text)'")
        }
        started = date
        readOnly = try c.decodeIfPresent(Bool.self, forKey: .readOnly) ?? false
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(protocolVersion, forKey: .protocolVersion)
        try c.encode(program, forKey: .program)
        try c.encode(pid, forKey: .pid)
        try c.encode(title, forKey: .title)
        try c.encode(ISO8601.string(from: started), forKey: .started)
        try c.encode(readOnly, forKey: .readOnly)
    }
}

/// ISO 8601 times with milliseconds, the protocol's one wall-clock format.
enum ISO8601 {
    static func string(from date: Date) -> String {
        Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
    }

    static func date(from text: String) -> Date? {
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
            ?? (try? Date.ISO8601FormatStyle().parse(text))
    }
}
