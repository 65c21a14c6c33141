/// How wide an id column is: `#` and the largest id listed, and the one-cell gap after it. Ids
/// are never reused, so they only grow: a fixed width cut them sooner or later (a four-cell
/// column showed #8946 … #8950 all as `#89…`, rows that could not be told apart). Every list
/// that shows ids sizes its column here, so none of them cuts one.
enum IDColumn {
    /// The width for ids up to `largest` (nil: none listed), at least `minimum`.
    static func width(largest: (some BinaryInteger)?, minimum: Int) -> Int {
        max(minimum, largest.map { "#\($0)".count + 1 } ?? 0)
    }
}
