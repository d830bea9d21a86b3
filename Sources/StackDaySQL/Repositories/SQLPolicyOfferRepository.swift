import Foundation
import StackDay

/// Offered scripts in either store (`PolicyOfferSchema`). A script read back is checked against
/// its hash, as a stored one is.
public final class SQLPolicyOfferRepository: PolicyOfferRepository {
    private let executor: any SQLExecutor
    private let statements: Statements
    private static let columns = "recipient, name, offered_by, sha256, source, offered_at"

    /// The statements, in each dialect, made once.
    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let toSQL, bySQL, putSQL, removeSQL, removeFromEverySQL, removeAllSQL: String

        init(_ dialect: SQLDialect) {
            let columns = SQLPolicyOfferRepository.columns
            toSQL = dialect.statement("SELECT \(columns) FROM policy_offers WHERE recipient IN ($1, '*') ORDER BY offered_at, name, offered_by")
            bySQL = dialect.statement("SELECT \(columns) FROM policy_offers WHERE offered_by = $1 ORDER BY offered_at, name, recipient")
            putSQL = dialect.statement("""
                INSERT INTO policy_offers (\(columns)) VALUES ($1, $2, $3, $4, $5, $6)
                ON CONFLICT (recipient, name, offered_by) DO UPDATE SET sha256 = excluded.sha256, source = excluded.source, offered_at = excluded.offered_at
                """)
            removeSQL = dialect.statement("DELETE FROM policy_offers WHERE name = $1 AND offered_by = $2 AND recipient = $3")
            removeFromEverySQL = dialect.statement("DELETE FROM policy_offers WHERE name = $1 AND offered_by = $2")
            removeAllSQL = dialect.statement("DELETE FROM policy_offers WHERE recipient = $1 OR offered_by = $1")
        }
    }

    public init(executor: any SQLExecutor) {
        self.executor = executor
        statements = .of(executor.dialect)
    }

    public func offers(to user: String) throws -> [PolicyOffer] {
        try executor.rows(statements.toSQL, [.text(user)], decode)
    }

    public func offers(by user: String?) throws -> [PolicyOffer] {
        try executor.rows(statements.bySQL, [.text(user ?? "")], decode)
    }

    public func put(_ offer: PolicyOffer) throws {
        try executor.run(statements.putSQL, [
            .text(offer.recipient ?? PolicyOfferSchema.everyone), .text(offer.name), .text(offer.offeredBy ?? ""),
            .text(offer.script.sha256), .text(offer.script.source), .instant(offer.offeredAt),
        ])
    }

    public func remove(name: String, offeredBy: String?, recipient: String?) throws -> Int {
        if let recipient {
            return try executor.run(statements.removeSQL, [.text(name), .text(offeredBy ?? ""), .text(recipient)])
        }
        return try executor.run(statements.removeFromEverySQL, [.text(name), .text(offeredBy ?? "")])
    }

    public func removeAll(of user: String) throws {
        try executor.run(statements.removeAllSQL, [.text(user)])
    }

    private func decode(_ row: any SQLRow) throws -> PolicyOffer {
        let recipient = row.text("recipient"), by = row.text("offered_by")
        let script = try PolicyScript(name: row.text("name"), sha256: row.text("sha256"), source: row.text("source"), installedAt: row.instant("offered_at"))
        return PolicyOffer(recipient: recipient == PolicyOfferSchema.everyone ? nil : recipient, script: script,
                           offeredBy: by.isEmpty ? nil : by, offeredAt: row.instant("offered_at"))
    }
}
