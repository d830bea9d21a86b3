import StackDay

/// A store's own way of inserting many completions, where its SQL cannot be the other's: SQLite
/// binds each row from a stack buffer to one prepared statement; PostgreSQL streams them in the
/// `COPY` protocol. Both insert only ids not yet stored and answer, in order, which they inserted.
public protocol SQLBulkCompletions: AnyObject {
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool]
}
