import GRDB

extension StoredValue {
    /// The value as SQLite stored it, whatever the column's declared type.
    init(_ value: DatabaseValue) {
        switch value.storage {
        case .null: self = .null
        case .int64(let integer): self = .integer(integer)
        case .double(let real): self = .real(real)
        case .string(let text): self = .text(text)
        case .blob(let data): self = .blob(data)
        }
    }
}

extension StoredRow {
    /// The named columns of `row`, read as stored values: reading a `DatabaseValue` never
    /// traps, where GRDB's typed subscripts stop the process on a value of the wrong type.
    init(_ row: Row, columns: [String]) {
        self.init(columns.map { ($0, StoredValue(row[$0] as DatabaseValue)) })
    }
}
