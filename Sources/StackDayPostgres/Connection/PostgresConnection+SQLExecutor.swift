import StackDaySQL

/// The shared statements (`StackDaySQL`) on a PostgreSQL connection, as written: `$N`
/// parameters sent as text and typed by their columns.
extension PostgresConnection: SQLExecutor {
    var dialect: SQLDialect { .postgres }

    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int {
        try execute(sql, values).changed
    }

    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T] {
        let result = try execute(sql, values)
        return try (0..<result.count).map { try decode(PostgresRow(rows: result, row: $0, sql: sql)) }
    }
}
