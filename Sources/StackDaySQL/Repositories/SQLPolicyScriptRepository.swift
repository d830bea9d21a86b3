import Foundation
import StackDay

/// Policy scripts in either store, one row per owner and SHA-256, never changed but for being
/// marked installed (a trigger refuses any other update in SQLite). An owner sees only the scripts it stored, even when another stored the
/// same hash. Reading a script back checks its hash (`PolicyScriptError.tampered`).
public final class SQLPolicyScriptRepository: PolicyScriptRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let statements: Statements

    /// The statements, in each dialect, made once.
    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let insertSQL, bySHA256, allSQL, deleteAllSQL, markSQL: String

        init(_ dialect: SQLDialect) {
            let column = dialect.owner
            insertSQL = dialect.statement("""
                INSERT INTO policy_scripts (\(column), sha256, name, source, installed_at, installed) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (\(column), sha256) DO NOTHING
                """)
            bySHA256 = dialect.statement("SELECT name, sha256, source, installed_at, installed FROM policy_scripts WHERE \(column) = $1 AND sha256 = $2")
            allSQL = dialect.statement("SELECT name, sha256, source, installed_at, installed FROM policy_scripts WHERE \(column) = $1 ORDER BY installed_at, name, sha256")
            deleteAllSQL = dialect.statement("DELETE FROM policy_scripts WHERE \(column) = $1")
            // Installed again, a script keeps the later time: an install time only moves on (sync joins them).
            markSQL = dialect.statement("""
                UPDATE policy_scripts SET installed_at = CASE WHEN installed = 1 AND installed_at > $3 THEN installed_at ELSE $3 END, installed = 1
                WHERE \(column) = $1 AND sha256 = $2
                """)
        }
    }

    public init(executor: any SQLExecutor, owner: String) {
        self.executor = executor
        self.owner = .text(owner)
        statements = .of(executor.dialect)
    }

    public func insert(_ script: PolicyScript) throws {
        try executor.run(statements.insertSQL, [owner, .text(script.sha256), .text(script.name), .text(script.source), .instant(script.installedAt),
                                  .integer(script.installed ? 1 : 0)])
    }

    public func script(sha256: String) throws -> PolicyScript? {
        try executor.rows(statements.bySHA256, [owner, .text(sha256)], decode).first
    }

    public func all() throws -> [PolicyScript] {
        try executor.rows(statements.allSQL, [owner], decode)
    }

    public func deleteAll() throws {
        try executor.run(statements.deleteAllSQL, [owner])
    }

    public func markInstalled(sha256: String, at: Date) throws {
        try executor.run(statements.markSQL, [owner, .text(sha256), .instant(at)])
    }

    private func decode(_ row: any SQLRow) throws -> PolicyScript {
        try PolicyScript(name: row.text("name"), sha256: row.text("sha256"), source: row.text("source"), installedAt: row.instant("installed_at"),
                         installed: row.integer("installed") != 0)
    }
}
