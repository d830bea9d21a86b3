import StackDay

/// A store's own way of inserting many completions, where its SQL cannot be the other's: SQLite
/// binds each row from a stack buffer to one prepared statement; PostgreSQL streams them in the
/// `COPY` protocol. Both insert only ids not yet stored and answer, in order, which they inserted.
public protocol SQLBulkCompletions: AnyObject {
    func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool]

    /// Runs `body`, which inserts many new completions or skips (`kind`) in the caller's
    /// transaction, with what the store's row triggers do kept once for all of them: each of
    /// `touched` (a habit's id as stored, and the earliest day `body` writes for it, ISO) is
    /// invalidated after `body`, and the keys `body` answers (the rows it inserted, in order) are
    /// entered in the change log as the triggers would have entered them one by one. A store whose
    /// triggers cannot be set aside just runs `body`.
    func insertingOnce(_ kind: SyncKind, touched: [(habit: String, day: String)], _ body: () throws -> [String]) throws
}
