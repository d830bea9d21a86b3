import Foundation
import StackDay

/// Policy scripts in SQLite, one row per owner and SHA-256; rows are never updated (a trigger
/// refuses it). An owner sees only the scripts it stored, even when another stored the same hash.
final class SQLitePolicyScriptRepository: PolicyScriptRepository {
    private let database: Database
    private let owner: SQLValue

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
    }

    func insert(_ script: PolicyScript) throws {
        try database.statement("INSERT INTO policy_scripts (owner, sha256, name, source, installed_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (owner, sha256) DO NOTHING")
            .run([owner, .text(script.sha256), .text(script.name), .text(script.source), RowDecoding.instantValue(script.installedAt)])
    }

    func script(sha256: String) throws -> PolicyScript? {
        try database.statement("SELECT name, sha256, source, installed_at FROM policy_scripts WHERE owner = ? AND sha256 = ?").rows([owner, .text(sha256)], decode).first
    }

    func all() throws -> [PolicyScript] {
        try database.statement("SELECT name, sha256, source, installed_at FROM policy_scripts WHERE owner = ? ORDER BY installed_at, name, sha256")
            .rows([owner], decode)
    }

    func deleteAll() throws {
        try database.statement("DELETE FROM policy_scripts WHERE owner = ?").run([owner])
    }

    private func decode(_ row: Statement.Row) throws -> PolicyScript {
        try PolicyScript(name: row.text(0), sha256: row.text(1), source: row.text(2), installedAt: RowDecoding.instant(row, 3))
    }
}
