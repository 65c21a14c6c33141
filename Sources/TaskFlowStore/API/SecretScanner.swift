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
    /// A URL is a scheme character, `://` (or `:\/\/`, as JSON often escapes it inside an error
    /// message), then the authority, which runs to the next `/` or whitespace. When it holds an
    /// `@`, everything before the last one is the user info (passwords are often written
    /// unescaped, so `ann:p@ss@db` is `ann` with `p@ss` at `db`), and the password is what
    /// follows its first `:`. An authority with a `:` that is not a port's and no `@`
    /// (`ann:pa/ss@db/app`) was cut by a `/` in the password: it runs on to the `@`.
    static func urlPasswords(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        // Where a search for a cut password's `@` last reached whitespace (or the end) without
        // finding one: a search starting before it finds none either, so it is not made again,
        // which keeps `a://b:c/a://b:c/…` linear.
        var noAtBefore = 0
        var index = 1
        while index + 2 < text.count {
            guard text[index] == colon, isScheme(text[index - 1]), let start = authorityStart(in: text, colon: index) else {
                index += 1
                continue
            }
            var end = start, firstColon = -1, lastAt = -1
            while end < text.count, text[end] != slash, !isSpace(text[end]) {
                if text[end] == colon, firstColon < 0 { firstColon = end }
                if text[end] == at { lastAt = end }
                end += 1
            }
            if firstColon >= 0, lastAt < 0, end >= noAtBefore, text[start] != openBracket,
                !isPort(UnsafeBufferPointer(rebasing: text[(firstColon + 1)..<end])) {
                (end, lastAt) = cutPassword(in: text, from: end)
                if lastAt < 0 { noAtBefore = end }
            }
            if firstColon >= 0, firstColon + 1 < lastAt { found.append(firstColon + 1..<lastAt) }
            // The next URL's `://` may start on the authority's last byte (`a://b:c://…`); no
            // authority holds a `/`, so no byte is read as part of two.
            index = max(end - 1, index + 1)
        }
        return found
    }

    /// Where the authority of a URL whose scheme ends with the `:` at `colon` starts: after
    /// `://` or `:\/\/`; nil if neither follows.
    private static func authorityStart(in text: UnsafeBufferPointer<UInt8>, colon: Int) -> Int? {
        if colon + 2 < text.count, text[colon + 1] == slash, text[colon + 2] == slash { return colon + 3 }
        if colon + 4 < text.count, text[colon + 1] == backslash, text[colon + 2] == slash, text[colon + 3] == backslash,
            text[colon + 4] == slash {
            return colon + 5
        }
        return nil
    }

    /// The rest of an authority cut by a `/` at `start`: up to the first `/` after an `@`, or to
    /// whitespace; with the last `@` in it, or -1 (and the whitespace's index) if there is none.
    private static func cutPassword(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, lastAt: Int) {
        var end = start, lastAt = -1
        while end < text.count, !isSpace(text[end]), !(lastAt >= 0 && text[end] == slash) {
            if text[end] == at { lastAt = end }
            end += 1
        }
        return (end, lastAt)
    }

    /// Whether an authority's text after its `:` is a port: digits (and the `\` of an escaped
    /// `/` that ended it).
    private static func isPort(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        text.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || $0 == backslash }
    }

    /// The byte ranges of the values of every parameter in `text` whose name is secret by
    /// ``JobRedaction/isSecret(_:)``, in order and disjoint: `password=…` in a query string
    /// (`?user=ann&password=…`), a connection string (`host=db password = …`, `;pwd=…;`) or a
    /// message, and `name: value` as JSON, YAML and HTTP headers write it (`"token":"…"`,
    /// `Authorization: Bearer …`), which error messages quote. A name is a run of letters,
    /// digits, `_`, `-` and `.`, maybe closed by a quote, before `=` or `:` (blanks around them
    /// allowed); the value runs to the next `&`, `;` or whitespace, or to its closing quote when
    /// it is quoted, and takes in the credential after an authorization scheme (`Bearer …`).
    static func secretParameterValues(in text: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var found: [Range<Int>] = []
        // The name a `=` or `:` here would follow: the last run of name characters, if only a
        // closing quote and blanks came after it. Each byte is in one name at most, and each
        // name is asked about once.
        var name: Range<Int>?, runStart = -1, quoteClosed = false
        var index = 0
        while index < text.count {
            let byte = text[index]
            if isName(byte) {
                if runStart < 0 { runStart = index }
                index += 1
                continue
            }
            if runStart >= 0 { (name, runStart, quoteClosed) = (runStart..<index, -1, false) }
            if byte == equals || byte == colon, let secretName = name {
                name = nil
                if JobRedaction.containsSecretPart(UnsafeBufferPointer(rebasing: text[secretName])) {
                    let value = valueRange(in: text, from: index + 1)
                    if !value.isEmpty { found.append(value) }
                    index = max(value.upperBound, index + 1)
                    continue
                }
            } else if (byte == doubleQuote || byte == singleQuote), name?.upperBound == index, !quoteClosed {
                quoteClosed = true
            } else if !isBlank(byte) {
                name = nil
            }
            index += 1
        }
        return found
    }

    /// The value that starts at `start`, after any blanks: up to a delimiter (and over the
    /// next word after an authorization scheme), or inside its quotes.
    private static func valueRange(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Range<Int> {
        var start = start
        while start < text.count, isBlank(text[start]) { start += 1 }
        guard start < text.count, text[start] == doubleQuote || text[start] == singleQuote else {
            var end = word(in: text, from: start)
            if isAuthorizationScheme(UnsafeBufferPointer(rebasing: text[start..<end])) {
                var credential = end
                while credential < text.count, isBlank(text[credential]) { credential += 1 }
                end = max(end, word(in: text, from: credential))
            }
            return start..<end
        }
        let quote = text[start]
        var end = start + 1
        while end < text.count, text[end] != quote { end += 1 }
        return (start + 1)..<end
    }

    /// Where an unquoted value starting at `start` ends: at the next `&`, `;` or whitespace.
    private static func word(in text: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var end = start
        while end < text.count, text[end] != ampersand, text[end] != semicolon, !isSpace(text[end]) { end += 1 }
        return end
    }

    /// Whether `word` is an HTTP authorization scheme that a credential follows, in any case.
    private static func isAuthorizationScheme(_ word: UnsafeBufferPointer<UInt8>) -> Bool {
        let lowered = String(decoding: word.prefix(10), as: UTF8.self).lowercased()
        return word.count <= 10 && ["bearer", "basic", "digest", "token", "negotiate"].contains(lowered)
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
    private static var backslash: UInt8 { 0x5C }
    private static var openBracket: UInt8 { 0x5B }

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

    /// Space or tab: what may stand around a `=` or `:` on one line.
    private static func isBlank(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09
    }

    /// Space, tab, line feed, vertical tab, form feed or carriage return.
    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (byte >= 0x09 && byte <= 0x0D)
    }
}
