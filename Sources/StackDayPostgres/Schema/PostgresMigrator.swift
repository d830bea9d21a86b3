import Foundation

/// Brings a database's schema up to date: each missing migration in its own transaction, all of
/// them under one advisory lock, recorded in `schema_migrations`.
struct PostgresMigrator {
    let connection: PostgresConnection

    func prepare() throws {
        try connection.execute("SELECT pg_advisory_lock($1)", [.integer(PostgresMigrations.lockKey)])
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [.integer(PostgresMigrations.lockKey)]) }
        try connection.execute("CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
        let applied = Int(try connection.scalar("SELECT coalesce(max(id), 0) FROM schema_migrations") ?? "0") ?? 0
        let known = PostgresMigrations.all.last?.id ?? 0
        if applied > known {
            throw PostgresError(sqlState: "", message: "this database was written by a newer StackDay (schema \(applied), this version knows up to \(known)); upgrade StackDay", sql: nil)
        }
        for migration in PostgresMigrations.all where migration.id > applied {
            try connection.execute("BEGIN")
            do {
                for statement in migration.sql { try connection.execute(statement) }
                try connection.execute("INSERT INTO schema_migrations (id, name) VALUES ($1, $2)", [.integer(Int64(migration.id)), .text(migration.name)])
                try connection.execute("COMMIT")
            } catch {
                _ = try? connection.execute("ROLLBACK")
                throw error
            }
        }
    }
}
