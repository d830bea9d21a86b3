import StackDaySQL
import Foundation

/// Checks what a file is, then brings its schema up to date.
struct Migrator {
    let database: Database

    /// Refuses a file that is not a StackDay database or that a newer StackDay wrote,
    /// before anything is written to it; then applies each missing migration in its own transaction.
    func prepare() throws {
        let applied = try identify()
        try configure()
        let pending = Migrations.all.filter { $0.id > applied }
        if !pending.isEmpty, database.isReadOnly { throw StoreError.readOnly(path: database.path) }
        for migration in pending {
            // `PRAGMA foreign_keys` is ignored inside a transaction: set it around one.
            if migration.rebuildsTables { try database.execute("PRAGMA foreign_keys = OFF") }
            defer { if migration.rebuildsTables { try? database.execute("PRAGMA foreign_keys = ON") } }
            try database.transaction(write: true) {
                try database.execute("CREATE TABLE IF NOT EXISTS schema_migrations (id INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at REAL NOT NULL) STRICT")
                guard try database.scalarInteger("SELECT 1 FROM schema_migrations WHERE id = ?", [.integer(Int64(migration.id))]) == nil else { return }
                try database.execute(migration.sql())
                try migration.backfill?(database)
                if migration.rebuildsTables, let table = try database.scalarText("PRAGMA foreign_key_check") {
                    throw StoreError.brokenReference(path: database.path, table: table)
                }
                try database.statement("INSERT INTO schema_migrations (id, name, applied_at) VALUES (?, ?, ?)")
                    .run([.integer(Int64(migration.id)), .text(migration.name), .real(Date().timeIntervalSince1970)])
            }
        }
    }

    /// The id of the latest migration applied (0 for a new file).
    private func identify() throws -> Int {
        let tables: Int64
        do {
            tables = try database.scalarInteger("SELECT count(*) FROM sqlite_schema") ?? 0
        } catch let error as DatabaseError where ResultCode.notADatabase ~= error.resultCode {
            throw StoreError.notADatabase(path: database.path)
        }
        let applicationID = try database.scalarInteger("PRAGMA application_id") ?? 0
        if applicationID == Migrations.applicationID {
            let latest = try database.scalarInteger("SELECT max(id) FROM schema_migrations") ?? 0
            let known = Int64(Migrations.all.last?.id ?? 0)
            if latest > known { throw StoreError.newerSchema(path: database.path, version: Int(latest), supported: Int(known)) }
            return Int(latest)
        } else if tables > 0 || applicationID != 0 {
            throw StoreError.foreignDatabase(path: database.path)
        }
        return 0
    }

    private func configure() throws {
        try database.execute("PRAGMA foreign_keys = ON")
        if database.isReadOnly || database.isInMemory { return }
        let mode = try database.scalarText("PRAGMA journal_mode = WAL")
        guard mode?.lowercased() == "wal" else { throw StoreError.walUnavailable(path: database.path, mode: mode ?? "unknown") }
        try database.execute("PRAGMA synchronous = NORMAL")
    }
}
