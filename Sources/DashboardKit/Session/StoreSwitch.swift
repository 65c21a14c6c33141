import TaskFlow

/// A switch of the world a job store's executors see, which the user flips with a key of its
/// own in the stored jobs view: the outbox demo's simulated network. The source contributes the
/// key, the words for it and its state; the dashboard knows nothing of what it means.
package struct StoreSwitch: Sendable, Hashable {
    /// The key that flips it (`n`). A key the view or every view already takes is not bound.
    package let key: Character
    /// What it switches: "network".
    package let name: String
    /// Whether it is on now.
    package let isOn: Bool
    /// How its states read: "up" and "down".
    package let onLabel: String, offLabel: String

    /// A switch of `name` flipped with `key`, whose states read `on` and `off`.
    package init(key: Character, name: String, isOn: Bool, on: String = "on", off: String = "off") {
        self.key = key
        self.name = name
        self.isOn = isOn
        onLabel = on
        offLabel = off
    }

    /// "network up".
    var state: String { "\(name) \(isOn ? onLabel : offLabel)" }

    /// The same switch in the other state.
    var flipped: StoreSwitch { StoreSwitch(key: key, name: name, isOn: !isOn, on: onLabel, off: offLabel) }
}

/// A job store source with switches of its own (the outbox demo's network): the stored jobs view
/// shows each one's state and binds its key.
package protocol SwitchedJobStoreSource: JobStoreSource {
    /// The switches as they stand now, each with its key.
    var switches: [StoreSwitch] { get }
    /// Flips the switch of `key`.
    func flip(_ key: Character)
}

extension JobStoreSource {
    /// The source's switches, if it has any.
    var switches: [StoreSwitch] { (self as? any SwitchedJobStoreSource)?.switches ?? [] }
}
