/// A store of habits, completions and skips, reached through transactions.
///
/// Every use case runs in one `write` or `read`: a `write` that throws leaves nothing behind.
/// A store acts for one owner (a user): it reads, writes and counts only that owner's data.
public protocol HabitStore: AnyObject {
    /// The user whose habits, records, skips, scripts and revisions this store reaches.
    var owner: String { get }
    /// The same store acting for `owner`; it shares this store's connection, so use it on the
    /// thread that uses this one.
    func scoped(to owner: String) throws -> any HabitStore
    /// Runs `body` in one write transaction; rolls everything back when it throws.
    func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T
    /// Runs `body` in one write transaction that is one part of a long write, which ends early
    /// when `writersWaiting`: a store with one writer lets other writes go ahead of it.
    func bulkWrite<T>(_ body: (any HabitTransaction) throws -> T) throws -> T
    /// Runs `body` against one consistent snapshot.
    func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T
    /// Runs `body`, which reads with a single statement and stages nothing, where a read costs
    /// least: a statement alone sees one snapshot, so a store that opens a transaction at a price
    /// (round trips to a database server) may run it without one. Otherwise the same as `read`.
    func readStatement<T>(_ body: (any HabitTransaction) throws -> T) throws -> T
    /// Told before a bulk import of about `records` rows, so the store can trade memory for speed.
    func prepareForBulkWrite(records: Int)
    /// A number that grows with every write transaction of this owner, from any process: what a
    /// server keys an owner's answers by. nil for a store that keeps none.
    func changeCount() throws -> Int64?
    /// What tells this store apart from a copy or a restore of it (a file's device and inode, a
    /// database's own id): a sync server starts a new epoch when it is not the one it was (see
    /// `SyncServerIdentity`). nil for a store that cannot tell.
    func storeIdentity() throws -> String?
    /// Whether every user's writes wait for one writer (a SQLite file): a long write is then split
    /// where it can be (`ServeSync.slices`), so that other users' writes wait less.
    var hasOneWriter: Bool { get }
    /// Whether another write (of any user) waits for the one this store runs now: a long write on
    /// a `hasOneWriter` store ends its transaction early for it.
    var writersWaiting: Bool { get }
    /// Whether a write (of any user) had to wait for another in the last two seconds: a long
    /// write on a `hasOneWriter` store then goes in its smallest parts, so the next one waits less.
    var writersContended: Bool { get }
}

extension HabitStore {
    public func readStatement<T>(_ body: (any HabitTransaction) throws -> T) throws -> T { try read(body) }
    public var hasOneWriter: Bool { false }
    public var writersWaiting: Bool { false }
    public var writersContended: Bool { false }

    public func bulkWrite<T>(_ body: (any HabitTransaction) throws -> T) throws -> T { try write(body) }

    public func prepareForBulkWrite(records: Int) {}
    public func changeCount() throws -> Int64? { nil }
    public func storeIdentity() throws -> String? { nil }
}
