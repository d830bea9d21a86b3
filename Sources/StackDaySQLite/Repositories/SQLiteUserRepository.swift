import Foundation
import StackDay

/// The store's users in SQLite (`users`, keyed by name; the token's hash is unique).
final class SQLiteUserRepository: UserRepository {
    private let database: Database
    private static let columns = "name, token_sha256, time_zone, day_start_minutes, created_at, language"

    init(database: Database) {
        self.database = database
    }

    private func values(_ user: User) -> [SQLValue] {
        [.text(user.name), .text(user.tokenSHA256), .text(user.timeZone), .integer(Int64(user.dayStart.minutes)), RowDecoding.instantValue(user.createdAt),
         user.language.map(SQLValue.text) ?? .null]
    }

    private func decode(_ row: Statement.Row) throws -> User {
        let minutes = Int(row.integer(3))
        guard let dayStart = try? DayStart(hour: minutes / 60, minute: minutes % 60) else {
            throw StoreError.corruptRow(table: "users", column: "day_start_minutes", value: String(minutes))
        }
        do {
            return try User(name: row.text(0), tokenSHA256: row.text(1), timeZone: row.text(2), dayStart: dayStart, createdAt: RowDecoding.instant(row, 4),
                            language: row.isNull(5) ? nil : row.text(5))
        } catch {
            throw StoreError.corruptRow(table: "users", column: "name or time_zone", value: "\(row.text(0)) \(row.text(2))")
        }
    }

    func insert(_ user: User) throws {
        guard try self.user(named: user.name) == nil else { throw UseCaseError.userExists(name: user.name) }
        try database.statement("INSERT INTO users (\(Self.columns)) VALUES (?, ?, ?, ?, ?, ?)").run(values(user))
    }

    func update(_ user: User) throws {
        let fields = values(user)
        try database.statement("UPDATE users SET token_sha256 = ?, time_zone = ?, day_start_minutes = ?, created_at = ?, language = ? WHERE name = ?")
            .run(Array(fields.dropFirst()) + [fields[0]])
        guard database.changes == 1 else { throw UseCaseError.userNotFound(name: user.name) }
    }

    func delete(named name: String) throws -> Bool {
        _ = try deleteSessions(of: name)
        try database.statement("DELETE FROM users WHERE name = ?").run([.text(name)])
        return database.changes == 1
    }

    func insertSession(_ session: UserSession) throws {
        guard try user(named: session.user) != nil else { throw UseCaseError.userNotFound(name: session.user) }
        try database.statement("INSERT INTO sessions (id_sha256, user_name, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?)").run([
            .text(session.idSHA256), .text(session.user), .text(session.csrfToken), RowDecoding.instantValue(session.createdAt),
            RowDecoding.instantValue(session.expiresAt),
        ])
    }

    func session(idSHA256: String) throws -> UserSession? {
        try database.statement("SELECT id_sha256, user_name, csrf_token, created_at, expires_at FROM sessions WHERE id_sha256 = ?")
            .rows([.text(idSHA256)]) { row in
                UserSession(idSHA256: row.text(0), user: row.text(1), csrfToken: row.text(2), createdAt: RowDecoding.instant(row, 3),
                            expiresAt: RowDecoding.instant(row, 4))
            }.first
    }

    func deleteSession(idSHA256: String) throws -> Bool {
        try database.statement("DELETE FROM sessions WHERE id_sha256 = ?").run([.text(idSHA256)])
        return database.changes == 1
    }

    func sessionCount(at now: Date) throws -> Int {
        try database.statement("SELECT count(*) FROM sessions WHERE expires_at > ?").rows([RowDecoding.instantValue(now)]) { Int($0.integer(0)) }.first ?? 0
    }

    func deleteSessions(of user: String) throws -> Int {
        try database.statement("DELETE FROM sessions WHERE user_name = ?").run([.text(user)])
        return database.changes
    }

    func user(named name: String) throws -> User? {
        try database.statement("SELECT \(Self.columns) FROM users WHERE name = ?").rows([.text(name)], decode).first
    }

    func user(tokenSHA256 sha256: String) throws -> User? {
        try database.statement("SELECT \(Self.columns) FROM users WHERE token_sha256 = ?").rows([.text(sha256)], decode).first
    }

    func all() throws -> [User] {
        try database.statement("SELECT \(Self.columns) FROM users ORDER BY name").rows([], decode)
    }
}
