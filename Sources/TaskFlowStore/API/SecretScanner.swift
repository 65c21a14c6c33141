/// Finds the secrets free text can hold, reading its UTF-8 bytes front to back: a URL's password
/// (`postgres://ann:s3cret@db/app`) and a secret-named parameter's value (`?password=s3cret`,
/// `token=abc`). A scan, not a backtracking regular expression, because anyone who can submit a
/// job chooses the text: each byte is read a bounded number of times, so a megabyte takes
/// milliseconds where the expression it replaces took hours. Every delimiter is ASCII, and
/// UTF-8 never uses an ASCII byte inside a longer character, so the ranges found always fall
/// between whole characters. Bytes are compared with plain comparisons on a buffer, which stay
/// fast in a debug build too.
enum SecretScanner {
    /// The byte ranges of every URL's password in `text`, in order and disjoint.
    ///
    /// A URL is a scheme character, `://`, then the authority, which runs to the next `/` or
    /// whitespace. When it holds an `@`, everything before the last one is the user info
    /// (passwords are often written unescaped, so `ann:p@ss@db` is `ann` with `p@ss` at `db`),
    /// and the password is what follows its first `:`.
    static func urlPasswords(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var index = 1
        while index + 2 < text.count {
            guard text[index] == colon, text[index + 1] == slash, text[index + 2] == slash, isScheme(text[index - 1]) else {
                index += 1
                continue
            }
            var end = index + 3, firstColon = -1, lastAt = -1
            while end < text.count, text[end] != slash, !isSpace(text[end]) {
                if text[end] == colon, firstColon < 0 { firstColon = end }
                if text[end] == at { lastAt = end }
                end += 1
            }
            if firstColon >= 0, firstColon + 1 < lastAt { found.append(firstColon + 1..<lastAt) }
            // The next URL's `://` may start on the authority's last byte (`a://b:c://…`); no
            // authority holds a `/`, so no byte is read as part of two.
            index = max(end - 1, index + 1)
        }
        return found
    }

    /// The byte ranges of the values of every parameter in `text` whose name is secret by
    /// ``JobRedaction/isSecret(_:)``, in order and disjoint: `password=…` in a query string
    /// (`?user=ann&password=…`), a connection string (`host=db password=…`, `;pwd=…;`) or a
    /// message. A name is a run of letters, digits, `_`, `-` and `.` right before `=`; the value
    /// runs to the next `&`, `;` or whitespace, or to its closing quote when it is quoted.
    static func secretParameterValues(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        var nameStart = 0, index = 0
        while index < text.count {
            let byte = text[index]
            index += 1
            if byte == equals, nameStart < index - 1,
                JobRedaction.containsSecretPart(UnsafeBufferPointer(rebasing: text[nameStart..<(index - 1)])) {
                let value = valueRange(in: text, from: index)
                if !value.isEmpty { found.append(value) }
                index = value.upperBound
                nameStart = index
            } else if !isName(byte) {
                nameStart = index
            }
        }
        return found
    }

    /// The value that starts at `start`: up to a delimiter, or inside its quotes.
    private static func valueRange(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int> {
        guard start < text.count, text[start] == doubleQuote || text[start] == singleQuote else {
            var end = start
            while end < text.count, text[end] != ampersand, text[end] != semicolon, !isSpace(text[end]) { end += 1 }
            return start..<end
        }
        let quote = text[start]
        var end = start + 1
        while end < text.count, text[end] != quote { end += 1 }
        return (start + 1)..<end
    }

    // The ASCII codes compared with, computed rather than stored: a stored static is reached
    // through a lazy initializer's check on every comparison in a debug build.
    private static var colon: UInt8 { 0x3A }
    private static var slash: UInt8 { 0x2F }
    private static var at: UInt8 { 0x40 }
    private static var equals: UInt8 { 0x3D }
    private static var ampersand: UInt8 { 0x26 }
    private static var semicolon: UInt8 { 0x3B }
    private static var doubleQuote: UInt8 { 0x22 }
    private static var singleQuote: UInt8 { 0x27 }

    /// `A`–`Z`, `a`–`z`, `0`–`9`.
    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    }

    /// A character of a URL scheme (`postgres`, `svn+ssh`): a letter, digit, `+`, `-` or `.`.
    private static func isScheme(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == 0x2B || byte == 0x2D || byte == 0x2E
    }

    /// A character of a parameter's name (`api_key`, `X-Auth-Token`, `db.password`): a letter,
    /// digit, `_`, `-` or `.`.
    private static func isName(_ byte: UInt8) -> Bool {
        isLetterOrDigit(byte) || byte == 0x5F || byte == 0x2D || byte == 0x2E
    }

    /// Space, tab, line feed, vertical tab, form feed or carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
