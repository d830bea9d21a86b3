import Foundation
import StackDay

/// Policy scripts in SQLite, one row per SHA-256; rows are never updated (a trigger refuses it).
final class SQLitePolicyScriptRepository: PolicyScriptRepository {
    private let database: Database

    init(database: Database) {
        self.database = database
    }

    func insert(_ script: PolicyScript) throws {
        try database.statement("INSERT INTO policy_scripts (sha256, name, source, installed_at) VALUES (?, ?, ?, ?) ON CONFLICT (sha256) DO NOTHING")
            .run([.text(script.sha256), .text(script.name), .text(script.source), RowDecoding.instantValue(script.installedAt)])
    }

    func script(sha256: String) throws -> PolicyScript? {
        try database.statement("SELECT name, sha256, source, installed_at FROM policy_scripts WHERE sha256 = ?").rows([.text(sha256)], decode).first
    }

    func all() throws -> [PolicyScript] {
        try database.statement("SELECT name, sha256, source, installed_at FROM policy_scripts ORDER BY installed_at, name, sha256").rows([], decode)
    }

    private func decode(_ row: Statement.Row) throws -> PolicyScript {
        try PolicyScript(name: row.text(0), sha256: row.text(1), source: row.text(2), installedAt: RowDecoding.instant(row, 3))
    }
}
