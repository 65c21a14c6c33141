/// A decoded JSON payload as it may be shown (``JobRedaction/redacted(payload:)``).
enum RedactedJSON {
    /// `value` with every secret field's value, at any depth, replaced by the mask, and every
    /// other string and every field name passed through ``JobRedaction/redacted(_:)``.
    static func value(_ value: Any) -> Any {
        switch value {
        case let object as [String: Any]: self.object(object)
        case let array as [Any]: array.map(self.value)
        case let text as String: JobRedaction.redacted(text)
        default: value
        }
    }

    /// An object's fields under their shown names. Masking passwords can give two names one
    /// shown form (`x://a:1@h` and `x://a:2@h` both become `x://a:‹redacted›@h`): then no field
    /// is lost or overwritten, and no secret is shown to tell them apart. The names redaction
    /// leaves alone keep theirs (they were unique); the others follow in the order of their
    /// original names, each taking the first free one of `name`, `name (2)`, `name (3)`…
    private static func object(_ object: [String: Any]) -> [String: Any] {
        var shown: [String: Any] = [:]
        var renamed: [(original: String, name: String, value: Any)] = []
        for (original, field) in object {
            let value = JobRedaction.isSecret(original) ? JobRedaction.mask : self.value(field)
            let name = JobRedaction.redacted(original)
            if name == original {
                shown[name] = value
            } else {
                renamed.append((original, name, value))
            }
        }
        // Counted per name, so that a thousand colliding fields do not try a thousand suffixes each.
        var nextSuffix: [String: Int] = [:]
        for field in renamed.sorted(by: { $0.original < $1.original }) {
            var name = field.name
            while shown[name] != nil {
                let suffix = nextSuffix[field.name, default: 2]
                nextSuffix[field.name] = suffix + 1
                name = "\(field.name) (\(suffix))"
            }
            shown[name] = field.value
        }
        return shown
    }
}
