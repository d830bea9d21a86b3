import Foundation
import StackDay
import StackDaySQL

/// The habit store on one SQLite file (or in memory with `":memory:"`), acting for one owner:
/// every statement names it, so one user never sees, changes or counts another's data.
///
/// Opening checks the file first: one that is not a SQLite database, that belongs to another
/// application, or that a newer StackDay wrote is refused untouched. Writes run in
/// `BEGIN IMMEDIATE` transactions; other processes wait up to the busy timeout for them.
public final class SQLiteHabitStore: HabitStore {
    public let path: String
    public let owner: String
    private let database: Database
    private let repositories: SQLStoreRepositories

    /// Opens or creates the store, creating its folder when missing. Throws `StoreError` or `DatabaseError`.
    /// `path` may also be `:memory:` or a SQLite `file:` URI (`file:/path?mode=ro`). A file
    /// written before owners existed holds `default`'s data.
    ///
    /// `clock`, when given, is the one the sync change log stamps this store's writes by (tests
    /// order events by it); without one, the machine's.
    public convenience init(path: String, owner: String = "default", clock: (any Clock)? = nil) throws {
        // Plain paths get their folder created; `:memory:` and `file:` URIs are passed to SQLite as they are.
        // A folder already there (the usual case) is found with one stat.
        if path != ":memory:", !path.hasPrefix("file:"), let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            let folder = String(path[..<slash])
            var found = stat()
            if stat(folder, &found) != 0 || found.st_mode & S_IFMT != S_IFDIR {
                do {
                    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                } catch {
                    throw StoreError.cannotCreateFolder(path: path, reason: error.localizedDescription)
                }
            }
        }
        let database = try Database(path: path)
        try Migrator(database: database).prepare()
        self.init(database: database, owner: owner, clock: clock)
    }

    private let clock: (any Clock)?

    private init(database: Database, owner: String, clock: (any Clock)?) {
        path = database.path
        self.owner = owner
        self.database = database
        self.clock = clock
        repositories = SQLStoreRepositories(executor: database, owner: owner, bulk: SQLiteBulkCompletions(database: database, owner: owner), clock: clock)
    }

    /// The same connection acting for `owner`: use it on the thread that uses this store.
    public func scoped(to owner: String) -> any HabitStore {
        owner == self.owner ? self : SQLiteHabitStore(database: database, owner: owner, clock: clock)
    }

    /// Every owner that has a habit or a stored script, sorted.
    public func owners() throws -> [String] {
        try database.statement("SELECT owner FROM habits UNION SELECT owner FROM policy_scripts ORDER BY 1").rows([]) { $0.text(0) }
    }

    /// A private in-memory store, for tests and previews.
    public static func inMemory() throws -> SQLiteHabitStore {
        try SQLiteHabitStore(path: ":memory:")
    }

    /// Runs `body` in one `BEGIN IMMEDIATE` transaction. The schema's triggers invalidate the
    /// evaluation cache rows of the habits it touches (`CacheTriggers`) in the same transaction.
    public func write<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        try write(rank: .single, body)
    }

    /// A part of a long write: other writes waiting on the file go first (`WriterQueue.Rank.bulk`).
    public func bulkWrite<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        try write(rank: .bulk, body)
    }

    private func write<T>(rank: WriterQueue.Rank, _ body: (any HabitTransaction) throws -> T) throws -> T {
        do {
            return try database.transaction(write: true, rank: rank) {
                try repositories.sync.startWrite()
                let result = try body(repositories.transaction)
                try repositories.sync.finishWrite()
                try database.statement("""
                    INSERT INTO owner_changes (owner, generation) VALUES (?, 1) ON CONFLICT (owner) DO UPDATE SET generation = generation + 1
                    """).run([.text(owner)])
                try repositories.cache.writeStaged()
                return result
            }
        } catch let error as DatabaseError where ResultCode.readOnly ~= error.resultCode {
            repositories.cache.discardStaged()
            throw StoreError.readOnly(path: path)
        } catch {
            repositories.cache.discardStaged()
            throw error
        }
    }

    /// Runs `body` in one read transaction. Answers it staged for the evaluation cache are then
    /// written in a short write transaction, for habits no write touched in between; a file that
    /// cannot be written (read-only, busy) just keeps its cache as it was.
    public func read<T>(_ body: (any HabitTransaction) throws -> T) throws -> T {
        let result: T
        do {
            result = try database.transaction(write: false) { try body(repositories.transaction) }
        } catch {
            repositories.cache.discardStaged()
            throw error
        }
        if repositories.cache.hasStaged {
            if database.isReadOnly {
                repositories.cache.discardStaged()
            } else if (try? database.transaction(write: true, { try repositories.cache.writeStaged() })) == nil {
                repositories.cache.discardStaged()
            }
        }
        return result
    }

    /// Leaves copying the write-ahead log back into the file to a thread of its own
    /// (`WALCheckpointer`) instead of the commit that fills it: for a server, whose users' small
    /// writes would otherwise now and then pay for another's large one.
    public func checkpointInBackground() throws {
        guard !database.isInMemory else { return }
        try database.execute("PRAGMA wal_autocheckpoint = 0")
        WALCheckpointer.start(for: path)
    }

    /// Every user of a file writes through its one write lock.
    public var hasOneWriter: Bool { true }

    public var writersWaiting: Bool { !database.isInMemory && WriterQueue.forFile(path).hasWaiters }

    public var writersContended: Bool { !database.isInMemory && WriterQueue.forFile(path).waited(within: Self.contentionWindow) }

    /// How long after a write had to wait the file counts as contended (`writersContended`).
    private static let contentionWindow: UInt64 = 2_000_000_000

    /// The file's device and inode: a file copied, or put back from a backup, is another file.
    public func storeIdentity() throws -> String? {
        var info = stat()
        guard path != ":memory:", !path.hasPrefix("file:"), stat(path, &info) == 0 else { return nil }
        return "\(info.st_dev):\(info.st_ino)"
    }

    public func changeCount() throws -> Int64? {
        // Every write moves a habit's counter or the owner's (a deleted habit's moves into the owner's).
        try database.scalarInteger("""
            SELECT coalesce((SELECT generation FROM owner_changes WHERE owner = ?1), 0)
                 + coalesce((SELECT sum(generation) FROM habit_generations WHERE owner = ?1), 0)
            """, [.text(owner)]) ?? 0
    }

    /// For a large import, lets this connection keep up to 64 MiB of pages (SQLite's default is
    /// 2 MiB): imports insert random UUID keys, and a cache smaller than the id index turns each
    /// insert into disk reads.
    public func prepareForBulkWrite(records: Int) {
        guard records > 10_000 else { return }
        try? database.execute("PRAGMA cache_size = -65536")
    }

    /// `PRAGMA integrity_check`'s answer: `ok` for a sound file.
    public func integrityCheck() throws -> String {
        try database.statement("PRAGMA integrity_check").rows([]) { $0.text(0) }.joined(separator: "\n")
    }

    /// The connection's journal mode (`wal` for a file).
    public func journalMode() throws -> String {
        try database.scalarText("PRAGMA journal_mode") ?? ""
    }
}
