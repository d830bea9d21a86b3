import StackDay

/// A store's own way of inserting many completions, where its SQL cannot be the other's: SQLite
/// binds each row from a stack buffer to one prepared statement; PostgreSQL streams them in the
/// `COPY` protocol. Both insert only ids not yet stored and answer, in order, which they inserted.
public protocol SQLBulkCompletions: AnyObject {
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool]

    /// Runs `body`, which inserts many completions or skips in the caller's transaction, with the
    /// evaluation cache kept once for all of them: each of `touched` (a habit's id as stored, and
    /// the earliest day `body` writes for it, ISO) is invalidated after `body`, where the store's
    /// triggers would do it row by row. A store whose triggers cannot be set aside just runs `body`.
    func touchingCacheOnce(_ touched: [(habit: String, day: String)], _ body: () throws -> Void) throws
}
