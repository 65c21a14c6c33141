/// What an `update` step does to the state: keys it sets and values it appends to lists.
package struct StateChange: Sendable, Equatable {
    /// One key and its value.
    package struct Entry: Sendable, Equatable {
        /// The state key.
        package var key: String
        /// The value written or appended.
        package var value: StateValue

        /// Creates an entry.
        package init(key: String, value: StateValue) {
            self.key = key
            self.value = value
        }
    }

    /// Keys replaced by a value (`set = { key = value }`).
    package var set: [Entry]
    /// Values appended to the list at a key (`append = { key = value }`); a missing key starts a
    /// list.
    package var append: [Entry]

    /// Creates a change.
    package init(set: [Entry] = [], append: [Entry] = []) {
        self.set = set
        self.append = append
    }
}
