/// What an `update` step does to the state: keys it sets and values it appends to lists.
public struct StateChange: Sendable, Equatable {
    /// One key and its value.
    public struct Entry: Sendable, Equatable {
        /// The state key.
        public var key: String
        /// The value written or appended.
        public var value: StateValue

        /// Creates an entry.
        public init(key: String, value: StateValue) {
            self.key = key
            self.value = value
        }
    }

    /// Keys replaced by a value (`set = { key = value }`).
    public var set: [Entry]
    /// Values appended to the list at a key (`append = { key = value }`); a missing key starts a
    /// list.
    public var append: [Entry]

    /// Creates a change.
    public init(set: [Entry] = [], append: [Entry] = []) {
        self.set = set
        self.append = append
    }
}
