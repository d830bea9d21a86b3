import CSQLite

/// Runs SQL on a database file through the C API, as another program would: what tests use to
/// look at or tamper with a store behind its back.
public enum SQLiteShell {
    /// Each result row with its columns joined by `|`; a failed statement answers with its message.
    public static func run(_ path: String, _ sql: String) -> [String] {
        var handle: OpaquePointer?
        guard sqlite3_open(path, &handle) == SQLITE_OK else { return ["open failed"] }
        defer { sqlite3_close(handle) }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK else { return [String(cString: sqlite3_errmsg(handle))] }
        defer { sqlite3_finalize(statement) }
        var rows: [String] = []
        var result = sqlite3_step(statement)
        while result == SQLITE_ROW {
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                sqlite3_column_text(statement, column).map { String(cString: $0) } ?? "NULL"
            }.joined(separator: "|"))
            result = sqlite3_step(statement)
        }
        // A failed step (a trigger's RAISE, a constraint) answers with its message.
        return result == SQLITE_DONE ? rows : rows + [String(cString: sqlite3_errmsg(handle))]
    }

    /// Puts `backup`'s pages back into the database at `path` through SQLite's online backup API,
    /// as `sqlite3 FILE ".restore BACKUP"` would: the file stays the same file (its inode too),
    /// only what it holds goes back. Answers nil, or SQLite's message.
    public static func restore(_ path: String, from backup: String) -> String? {
        var target: OpaquePointer?, source: OpaquePointer?
        guard sqlite3_open(path, &target) == SQLITE_OK, sqlite3_open(backup, &source) == SQLITE_OK else { return "open failed" }
        defer {
            sqlite3_close(source)
            sqlite3_close(target)
        }
        guard let copying = sqlite3_backup_init(target, "main", source, "main") else { return String(cString: sqlite3_errmsg(target)) }
        let stepped = sqlite3_backup_step(copying, -1)
        let finished = sqlite3_backup_finish(copying)
        return stepped == SQLITE_DONE && finished == SQLITE_OK ? nil : String(cString: sqlite3_errmsg(target))
    }
}
