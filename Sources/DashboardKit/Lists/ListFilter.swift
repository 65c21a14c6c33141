/// A filter typed with `/`, parsed: plain words must all appear in a row's text (a flow's
/// title; a job's title and kind), `field:value` terms narrow by a field (`state:failed
/// kind:send-email`), a leading `-` excludes what a term matches. Terms on the same field
/// are alternatives (`state:failed state:cancelled`), terms on different fields all apply.
/// Matching ignores case and finds the value anywhere in the field (`state:run` is running).
package struct ListFilter: Sendable, Hashable {
    /// One term of the filter.
    package struct Term: Sendable, Hashable {
        /// The field, or nil for a plain word matched against the row's text.
        package let field: String?
        /// What to find, lowercased.
        package let value: String
        /// True for `-term`: rows it matches are left out.
        package let excludes: Bool
    }

    /// The terms, in the order typed.
    package let terms: [Term]
    /// The terms that leave rows out (`-term`).
    private let exclusions: [Term]
    /// The plain words a row's text must all contain.
    private let words: [String]
    /// For each field with terms, the values one of which it must contain, fields in the order
    /// first typed. Grouped once here: a row is matched without building anything.
    private let alternatives: [Alternatives]

    /// The values one of which a field must contain.
    private struct Alternatives: Sendable, Hashable {
        let field: String
        var values: [String]
    }

    /// A filter of `terms`.
    init(terms: [Term]) {
        self.terms = terms
        exclusions = terms.filter(\.excludes)
        words = terms.filter { !$0.excludes && $0.field == nil }.map(\.value)
        var alternatives: [Alternatives] = []
        for term in terms where !term.excludes {
            guard let field = term.field else { continue }
            if let index = alternatives.firstIndex(where: { $0.field == field }) {
                alternatives[index].values.append(term.value)
            } else {
                alternatives.append(Alternatives(field: field, values: [term.value]))
            }
        }
        self.alternatives = alternatives
    }

    /// The filter `text` says, for a view whose fields are `fields` (lowercase names), and
    /// what is wrong with it: a term naming an unknown field, or a field without a value, is
    /// left out (the other terms apply) and the first such is returned as a
    /// ``ListFilterError`` that names it and lists the fields.
    package static func parse(_ text: String, fields: [String]) -> (filter: ListFilter, error: ListFilterError?, kept: String) {
        var terms: [Term] = []
        var kept: [Substring] = []
        var firstError: ListFilterError?
        for word in text.split(whereSeparator: \.isWhitespace) {
            do {
                terms.append(try term(word, fields: fields))
                kept.append(word)
            } catch {
                firstError = firstError ?? error
            }
        }
        return (ListFilter(terms: terms), firstError, kept.joined(separator: " "))
    }

    /// One word of the filter as a term.
    private static func term(_ word: Substring, fields: [String]) throws(ListFilterError) -> Term {
        let excludes = word.hasPrefix("-") && word.count > 1
        let body = excludes ? word.dropFirst() : word
        guard let colon = body.firstIndex(of: ":") else { return Term(field: nil, value: body.lowercased(), excludes: excludes) }
        let field = body[..<colon].lowercased()
        let value = body[body.index(after: colon)...].lowercased()
        guard fields.contains(field) else { throw .unknownField(field, fields: fields) }
        guard !value.isEmpty else { throw .missingValue(field) }
        return Term(field: field, value: value, excludes: excludes)
    }

    /// True when nothing was typed: every row passes.
    package var isEmpty: Bool { terms.isEmpty }

    /// Whether `row` passes, given how to read its searchable `text` and the value of a field
    /// (`value(name, row)`), each lowercased here and only when a term reads it. The row is
    /// handed to the readers, not captured by them: a capture copied it, a retain per field.
    package func matches<Row>(_ row: Row, text: (Row) -> String, field value: (String, Row) -> String) -> Bool {
        var lowered: String?
        for term in exclusions {
            let haystack = if let field = term.field { value(field, row).lowercased() } else { Self.lowered(&lowered, row, text) }
            if Self.find(term.value, in: haystack) { return false }
        }
        for word in words where !Self.find(word, in: Self.lowered(&lowered, row, text)) { return false }
        for group in alternatives {
            let found = value(group.field, row).lowercased()
            guard group.values.contains(where: { Self.find($0, in: found) }) else { return false }
        }
        return true
    }

    /// `row`'s text lowercased, once: kept in `cache` for the next word.
    private static func lowered<Row>(_ cache: inout String?, _ row: Row, _ text: (Row) -> String) -> String {
        let lowered = cache ?? text(row).lowercased()
        cache = lowered
        return lowered
    }
}

extension ListFilter {
    /// Whether `needle` occurs in `haystack`, byte by byte on their UTF-8 (both are lowercased
    /// already). Foundation's `contains`, which `import Foundation` picks, goes through NSString
    /// and was half of a filtered frame of 100,000 flows; the standard library's generic
    /// collection search was slower still.
    static func find(_ needle: String, in haystack: String) -> Bool {
        var needle = needle, haystack = haystack
        return needle.withUTF8 { wanted in
            haystack.withUTF8 { bytes in
                guard wanted.count <= bytes.count else { return false }
                guard let first = wanted.first else { return true }
                var start = 0
                while start <= bytes.count - wanted.count {
                    if bytes[start] == first, Self.matches(wanted, in: bytes, at: start) { return true }
                    start += 1
                }
                return false
            }
        }
    }

    /// Whether `wanted` is in `bytes` from `start` on (which has room for it).
    private static func matches(_ wanted: UnsafeBufferPointer<UInt8>, in bytes: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        for offset in 1..<wanted.count where bytes[start + offset] != wanted[offset] { return false }
        return true
    }
}

/// Why a typed filter cannot apply, as the status line says it.
package enum ListFilterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `field:` names no field of the view.
    case unknownField(String, fields: [String])
    /// `field:` with nothing after the colon.
    case missingValue(String)

    package var description: String {
        switch self {
        case .unknownField(let field, let fields):
            "no field '\(field.escapingControlCharacters)' here; use \(fields.map { "\($0):" }.joined(separator: " ")) or plain words"
        case .missingValue(let field): "'\(field):' needs a value, like \(field):failed"
        }
    }
}
