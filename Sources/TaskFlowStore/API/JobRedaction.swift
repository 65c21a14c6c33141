import Foundation

/// What the CLI and the dashboard show of a job never holds a credential: every piece of text a
/// job carries, its payload included, goes through this type, and for a whole job through
/// ``StoredJobInfo/redactedText``, before it is shown. A payload's fields whose name says they
/// are secret are masked; in any text, and so in every string and field name of a payload, the
/// password of a URL and the value of a secret-named parameter are masked.
public enum JobRedaction {
    /// What a secret is shown as.
    public static let mask = "‹redacted›"

    /// Name fragments that mark a field or a parameter as secret, matched case-insensitively
    /// anywhere in the name (`apiKey`, `password_hash`, `X-Auth-Token`, `Authorization`, `pwd`).
    /// Over-redacting a field named `author` is the price of never showing a credential.
    public static let secretNameParts = secretParts.map(\.description)

    /// ``secretNameParts`` as static text, whose bytes are read in place.
    private static let secretParts: [StaticString] = [
        "password", "passwd", "passphrase", "pwd", "token", "secret", "key", "auth", "credential", "cookie",
    ]

    /// Whether a field or parameter named `name` is shown redacted.
    public static func isSecret(_ name: String) -> Bool {
        var lowered = name.lowercased()
        return lowered.withUTF8(containsSecretPart)
    }

    /// `text` as it may be shown: the password of every URL in it masked
    /// (`postgres://ann:‹redacted›@db/app`, even `ann:p@ss@db`, whose password is `p@ss`), and
    /// the value of every parameter whose name ``isSecret(_:)`` (`?user=ann&password=‹redacted›`,
    /// `host=db pwd=‹redacted›`). Takes time linear in the text's length, whatever it holds.
    public static func redacted(_ text: String) -> String {
        let urlsMasked = masking(SecretScanner.urlPasswords, in: text)
        return masking(SecretScanner.secretParameterValues, in: urlsMasked)
    }

    /// `payload` as JSON with every secret field's value, at any depth, replaced by ``mask``,
    /// and every other string and every field name passed through ``redacted(_:)``; keys sorted
    /// so the output is stable. A payload that is not JSON is described, not shown.
    public static func redacted(payload: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: RedactedJSON.value(object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "(\(payload.count) bytes, not JSON)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// Whether `name`, compared without regard to ASCII case, contains one of
    /// ``secretNameParts``: the one rule for fields and parameters alike, over UTF-8 bytes so
    /// that the scanner asks it without making strings. Linear in the name's length: a part is
    /// compared where its first letter stands, and no part is longer than ten letters.
    static func containsSecretPart(_ name: UnsafeBufferPointer<UInt8>) -> Bool {
        // The scanner asks about every name before a `=`: most are too short to hold a part.
        guard name.count >= 3 else { return false }
        let count = name.count
        for part in secretParts where part.utf8CodeUnitCount <= count {
            let letters = part.utf8Start, length = part.utf8CodeUnitCount, first = letters.pointee
            var start = 0
            while start <= count - length {
                // `| 0x20` lowercases a letter; the parts are lowercase letters only, so it
                // never makes another character match one.
                if name[start] | 0x20 == first {
                    var matched = 1
                    while matched < length, name[start + matched] | 0x20 == letters[matched] { matched += 1 }
                    if matched == length { return true }
                }
                start += 1
            }
        }
        return false
    }

    /// `text` with the byte ranges `find` returns (in order, disjoint, between characters)
    /// replaced by ``mask``; the text itself when there are none.
    private static func masking(_ find: (UnsafeBufferPointer<UInt8>) -> [Range<Int>], in text: String) -> String {
        var contiguous = text
        let masked: String? = contiguous.withUTF8 { bytes in
            let secrets = find(bytes)
            guard !secrets.isEmpty else { return nil }
            var shown: [UInt8] = []
            shown.reserveCapacity(bytes.count)
            var copied = 0
            for secret in secrets {
                shown += bytes[copied..<secret.lowerBound]
                shown += mask.utf8
                copied = secret.upperBound
            }
            shown += bytes[copied...]
            return String(decoding: shown, as: UTF8.self)
        }
        return masked ?? text
    }
}
