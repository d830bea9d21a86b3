/// A store of habits, completions and skips, reached through transactions.
///
/// Every use case runs in one `write` or `read`: a `write` that throws leaves nothing behind.
public protocol HabitStore: AnyObject {
    /// Runs `body` in one write transaction; rolls everything back when it throws.
    func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T
    /// Runs `body` against one consistent snapshot.
    func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T
    /// Told before a bulk import of about `records` rows, so the store can trade memory for speed.
    func prepareForBulkWrite(records: Int)
}

extension HabitStore {
    public func prepareForBulkWrite(records: Int) {}
}
