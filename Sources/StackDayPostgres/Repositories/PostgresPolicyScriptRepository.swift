import Foundation
import StackDay

/// One user's policy scripts in PostgreSQL, by hash: a script another user installed is never
/// used for this user's habits unless this user installed the same hash.
final class PostgresPolicyScriptRepository: PolicyScriptRepository {
    private let connection: PostgresConnection
    private let owner: String

    init(connection: PostgresConnection, owner: String) {
        self.connection = connection
        self.owner = owner
    }

    func insert(_ script: PolicyScript) throws {
        try connection.execute("""
            INSERT INTO policy_scripts (user_id, sha256, name, source, installed_at) VALUES ($1, $2, $3, $4, $5)
            ON CONFLICT (user_id, sha256) DO NOTHING
            """, [.text(owner), .text(script.sha256), .text(script.name), .text(script.source), PostgresDecoding.instant(script.installedAt)])
    }

    func script(sha256: String) throws -> PolicyScript? {
        try decode(connection.execute("SELECT name, sha256, source, installed_at FROM policy_scripts WHERE user_id = $1 AND sha256 = $2",
                                      [.text(owner), .text(sha256)])).first
    }

    func all() throws -> [PolicyScript] {
        try decode(connection.execute("SELECT name, sha256, source, installed_at FROM policy_scripts WHERE user_id = $1 ORDER BY installed_at, name, sha256",
                                      [.text(owner)]))
    }

    func deleteAll() throws {
        try connection.execute("DELETE FROM policy_scripts WHERE user_id = $1", [.text(owner)])
    }

    private func decode(_ rows: PostgresRows) throws -> [PolicyScript] {
        try (0..<rows.count).map {
            try PolicyScript(name: rows.text($0, 0), sha256: rows.text($0, 1), source: rows.text($0, 2), installedAt: PostgresDecoding.instant(rows, $0, 3))
        }
    }
}
