import Foundation

/// Brings a database's schema up to date: each missing migration in its own transaction, all of
/// them under one advisory lock, recorded in `schema_migrations`.
///
/// The database is identified first, before anything is written: a schema that holds tables but
/// not StackDay's record of its first migration is another application's, and one recorded at a
/// newer schema than this build knows is refused.
struct PostgresMigrator {
    let connection: PostgresConnection

    func prepare() throws {
        try connection.execute("SELECT pg_advisory_lock($1)", [.integer(PostgresMigrations.lockKey)])
        defer { _ = try? connection.execute("SELECT pg_advisory_unlock($1)", [.integer(PostgresMigrations.lockKey)]) }
        let applied = try identify()
        let known = PostgresMigrations.all.last?.id ?? 0
        if applied > known {
            throw PostgresError(sqlState: "", message: "this database was written by a newer StackDay (schema \(applied), this version knows up to \(known)); upgrade StackDay", sql: nil)
        }
        if applied < known {
            try connection.execute("CREATE TABLE IF NOT EXISTS schema_migrations (id integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())")
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

    /// The latest migration applied: 0 for a schema without tables. Throws for another application's tables.
    private func identify() throws -> Int {
        let tables = Int(try connection.scalar("SELECT count(*) FROM pg_catalog.pg_tables WHERE schemaname = current_schema()") ?? "0") ?? 0
        guard tables > 0 else { return 0 }
        let schema = try connection.scalar("SELECT current_schema()") ?? "public"
        let columns = try connection.execute(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'schema_migrations' ORDER BY column_name")
        guard (0..<columns.count).map({ columns.text($0, 0) }) == ["applied_at", "id", "name"],
              try connection.scalar("SELECT name FROM schema_migrations WHERE id = 1") == PostgresMigrations.all.first?.name
        else {
            throw PostgresError(sqlState: "", message: "schema \(schema) of this database holds another application's tables; StackDay will not change it (give StackDay a database or schema of its own)", sql: nil)
        }
        return Int(try connection.scalar("SELECT max(id) FROM schema_migrations") ?? "0") ?? 0
    }
}
