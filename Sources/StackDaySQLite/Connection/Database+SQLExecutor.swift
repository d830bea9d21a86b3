import StackDaySQL

/// The shared statements (`StackDaySQL`) on a SQLite connection: rewritten to `?N` parameters,
/// prepared once and cached by text.
extension Database: SQLExecutor {
    var dialect: SQLDialect { .sqlite }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try statement(sql).run(values)
        return changes
    }

    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        let statement = try statement(sql)
        return try statement.rows(values) { try decode(SQLiteRow(row: $0, statement: statement)) }
    }
}
