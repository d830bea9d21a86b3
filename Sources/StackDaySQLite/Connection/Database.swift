import StackDaySQL
import CSQLite
import StackDay
import Foundation

/// One SQLite connection: WAL, `synchronous = NORMAL`, foreign keys, a busy timeout, temporary
/// files in memory, extended result codes, and a cache of prepared statements.
final class Database {
    let handle: OpaquePointer
    let path: String
    private var statements: [String: Statement] = [:]
    private var savepointDepth = 0

    /// How long a connection waits for another process's write lock before failing.
    static let busyTimeoutMilliseconds: Int32 = 15_000

    /// Opens (or creates) the file. Nothing is written here: callers check what the file is first.
    init(path: String) throws(DatabaseError) {
        var pointer: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_URI
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite3_close_v2(pointer)
            throw DatabaseError(extendedCode: code, message: "cannot open \(path): \(message)")
        }
        self.handle = pointer
        self.path = path
        sqlite3_extended_result_codes(handle, 1)
        sqlite3_busy_timeout(handle, Self.busyTimeoutMilliseconds)
        // Statement journals (what lets one statement of a write transaction be taken back alone:
        // every insert whose triggers log it) stay in memory. On disk, each past 64 KiB became a
        // temporary file of its own: a first sync wrote some 650 MB of them for 94 MB of store.
        sqlite3_exec(handle, "PRAGMA temp_store = MEMORY", nil, nil, nil)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Whether this is a private in-memory database (no WAL there).
    var isInMemory: Bool {
        guard let filename = sqlite3_db_filename(handle, "main") else { return true }
        return filename.pointee == 0
    }

    /// Whether the file could only be opened read-only (file permissions).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    func error(_ code: Int32, sql: String?) -> DatabaseError {
        let extended = sqlite3_extended_errcode(handle)
        return DatabaseError(extendedCode: extended != 0 ? extended : code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }

    /// The cached prepared statement for `sql`.
    func statement(_ sql: String) throws(DatabaseError) -> Statement {
        if let cached = statements[sql] { return cached }
        let statement = try Statement(database: self, sql: sql)
        statements[sql] = statement
        return statement
    }

    /// Runs one or more statements without parameters.
    func execute(_ sql: String) throws(DatabaseError) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw error(code, sql: sql) }
    }

    /// The first column of the first row, as text.
    func scalarText(_ sql: String, _ values: [SQLValue] = []) throws -> String? {
        try statement(sql).rows(values) { $0.isNull(0) ? nil : $0.text(0) }.first ?? nil
    }

    func scalarInteger(_ sql: String, _ values: [SQLValue] = []) throws -> Int64? {
        try statement(sql).rows(values) { $0.isNull(0) ? nil : $0.integer(0) }.first ?? nil
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Runs `body` in a transaction (`BEGIN IMMEDIATE` for writes, taking its turn in the file's
    /// `WriterQueue` at `rank`), nested ones as savepoints. Commits when `body` returns, rolls
    /// back when it throws.
    func transaction<T>(write: Bool, rank: WriterQueue.Rank = .single, _ body: () throws -> T) throws -> T {
        if savepointDepth > 0 {
            let name = "stackday_\(savepointDepth)"
            try execute("SAVEPOINT \(name)")
            savepointDepth += 1
            defer { savepointDepth -= 1 }
            do {
                let result = try body()
                try execute("RELEASE \(name)")
                return result
            } catch {
                try? execute("ROLLBACK TO \(name); RELEASE \(name)")
                throw error
            }
        }
        // This process's writers take the file's write lock in turn (`WriterQueue`).
        let queued = write && !isInMemory && WriterQueue.forFile(path).enter(rank, timeout: Double(Self.busyTimeoutMilliseconds) / 1000)
        defer { if queued { WriterQueue.forFile(path).leave() } }
        try execute(write ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        savepointDepth = 1
        defer { savepointDepth = 0 }
        do {
            let result = try body()
            if write { try CommitGate.check() }
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }
}
