/// One store connection as the shared statements use it: statements written with `$N`
/// parameters (see `SQLDialect`), their rows read by column name.
///
/// Implementations cache prepared statements by text where the database prepares them (SQLite).
public protocol SQLExecutor: AnyObject {
    var dialect: SQLDialect { get }
    /// Runs a statement in this dialect; returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLValue]) throws -> Int
    /// Each row of a query in this dialect, decoded by `decode`.
    func rows<T>(_ sql: String, _ values: [SQLValue], _ decode: (any SQLRow) throws -> T) throws -> [T]
}

extension SQLExecutor {
    /// The first row's `column` as an integer, or nil without rows or for NULL.
    public func integer(_ sql: String, _ values: [SQLValue], column: String) throws -> Int64? {
        try rows(sql, values) { $0.isNull(column) ? nil : $0.integer(column) }.first ?? nil
    }
}
