/// The three repositories of one store, and its transactions.
///
/// Every use case runs in one `write` or `read`: a `write` that throws leaves nothing behind.
public protocol HabitStore: AnyObject {
    var habits: any HabitRepository { get }
    var completions: any CompletionRepository { get }
    var skips: any SkipRepository { get }
    /// Runs `body` in one write transaction; rolls everything back when it throws.
    func write<T>(_ body: () throws -> T) throws -> T
    /// Runs `body` against one consistent snapshot.
    func read<T>(_ body: () throws -> T) throws -> T
    /// Told before a bulk import of about `records` rows, so the store can trade memory for speed.
    func prepareForBulkWrite(records: Int)
}

extension HabitStore {
    public func prepareForBulkWrite(records: Int) {}
}
