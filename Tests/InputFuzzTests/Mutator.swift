import TaskFlowTestSupport

/// The ways a file is broken on purpose: what an adversarial user, a bad download or a broken
/// editor would produce.
enum Mutation: CaseIterable {
    case flipByte, truncate, rawNUL, rawControl, escapedControl, deepTables, deepArrays, duplicateLine, deleteLine, strayStructure

    /// `bytes` mutated once, at places drawn from `random`.
    func apply(to bytes: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        let place = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
        switch self {
        case .flipByte:
            if !bytes.isEmpty { bytes[place] ^= UInt8(1 << Int.random(in: 0..<8, using: &random)) }
        case .truncate:
            bytes.removeLast(bytes.count - place)
        case .rawNUL:
            bytes.insert(0, at: place)
        case .rawControl:
            bytes.insert(contentsOf: [[0x1B, 0x5D, 0x30, 0x3B, 0x07], [0x0D], [0x9B], [0x7F]].randomElement(using: &random) ?? [], at: place)
        case .escapedControl:
            // Inside a string (after a quote) when there is one near, else wherever it lands.
            let escape = ["\\u0000", "\\u001B]0;PWNED\\u0007", "\\r\\nfake.toml:1:1: fine", "\\U00000000"].randomElement(using: &random) ?? ""
            let quote = bytes[place...].firstIndex(of: UInt8(ascii: "\"")).map { $0 + 1 } ?? place
            bytes.insert(contentsOf: Array(escape.utf8), at: quote)
        case .deepTables:
            let depth = Int.random(in: 50...400, using: &random)
            let header = "\n[[flow.step" + String(repeating: ".steps", count: depth) + "]]\ngroup = \"deep\"\n"
            bytes.append(contentsOf: Array(header.utf8))
        case .deepArrays:
            let depth = Int.random(in: 50...5_000, using: &random)
            let value = "\ndeep = " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n"
            bytes.insert(contentsOf: Array(value.utf8), at: lineStart(in: bytes, around: place))
        case .duplicateLine:
            let start = lineStart(in: bytes, around: place)
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            bytes.insert(contentsOf: bytes[start..<end], at: end)
        case .deleteLine:
            let start = lineStart(in: bytes, around: place)
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? bytes.count
            bytes.removeSubrange(start..<end)
        case .strayStructure:
            bytes.insert(contentsOf: Array(["[", "]", "{", "}", "\"", "'''", "=", ".", "#", "\n[[flow]]\n"].randomElement(using: &random)?.utf8 ?? "".utf8), at: place)
        }
        return bytes
    }

    private func lineStart(in bytes: [UInt8], around place: Int) -> Int {
        guard place > 0, place <= bytes.count else { return 0 }
        return bytes[..<place].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
    }
}
