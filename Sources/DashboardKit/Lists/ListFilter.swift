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

    /// Whether a row passes, given its searchable `text` (lowercased) and the value of each of
    /// its fields (lowercased).
    package func matches(text: String, field value: (String) -> String) -> Bool {
        var alternatives: [String: Bool] = [:]
        for term in terms {
            let found = term.field.map { Self.find(term.value, in: value($0)) } ?? Self.find(term.value, in: text)
            if term.excludes {
                if found { return false }
            } else if let field = term.field {
                alternatives[field, default: false] = alternatives[field, default: false] || found
            } else if !found {
                return false
            }
        }
        return alternatives.values.allSatisfy { $0 }
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
