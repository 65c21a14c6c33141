import Foundation

/// Payloads can hold personal data: what the CLI and the dashboard show of one hides every
/// field whose name says it is a secret.
public enum PayloadRedaction {
    /// What a secret field's value is shown as.
    public static let mask = "‹redacted›"

    /// Name fragments that mark a field as secret, matched case-insensitively anywhere in the
    /// name (`apiKey`, `password_hash`, `X-Auth-Token`, `Authorization`). Over-redacting a field
    /// named `author` is the price of never showing a credential.
    public static let secretNameParts = ["password", "passwd", "passphrase", "token", "secret", "key", "auth", "credential", "cookie"]

    /// Whether a field named `name` is shown redacted.
    public static func isSecret(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return secretNameParts.contains { lowered.contains($0) }
    }

    /// `payload` as JSON with every secret field's value, at any depth, replaced by ``mask``;
    /// keys sorted so the output is stable. A payload that is not JSON is described, not shown.
    public static func redacted(_ payload: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed]),
            let data = try? JSONSerialization.data(
                withJSONObject: hidingSecrets(in: object), options: [.sortedKeys, .fragmentsAllowed, .withoutEscapingSlashes])
        else { return "(\(payload.count) bytes, not JSON)" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A URL's password (`postgres://ann:s3cret@host/db`) masked wherever it stands in `text`.
    static func hidingURLPassword(in text: String) -> String {
        text.replacing(/(?<scheme>[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\/:@\s]*):[^@\/\s]*@/) { match in
            "\(match.output.scheme):\(mask)@"
        }
    }

    private static func hidingSecrets(in value: Any) -> Any {
        switch value {
        case let object as [String: Any]:
            Dictionary(uniqueKeysWithValues: object.map { name, inner in
                (name, isSecret(name) ? mask : hidingSecrets(in: inner))
            })
        case let array as [Any]: array.map(hidingSecrets)
        case let text as String: hidingURLPassword(in: text)
        default: value
        }
    }
}
