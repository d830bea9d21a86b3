import Foundation
import StackDay

/// The database's users in PostgreSQL (`users`, keyed by name; the token's hash is unique).
final class PostgresUserRepository: UserRepository {
    private let connection: PostgresConnection
    private static let columns = "name, token_sha256, time_zone, day_start_minutes, created_at, language"

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    private func values(_ user: User) -> [PostgresValue] {
        [.text(user.name), .text(user.tokenSHA256), .text(user.timeZone), .integer(Int64(user.dayStart.minutes)), PostgresDecoding.instant(user.createdAt),
         user.language.map(PostgresValue.text) ?? .null]
    }

    private func decode(_ rows: PostgresRows) throws -> [User] {
        try (0..<rows.count).map { row in
            let minutes = Int(rows.integer(row, 3))
            guard let dayStart = try? DayStart(hour: minutes / 60, minute: minutes % 60),
                  let user = try? User(name: rows.text(row, 0), tokenSHA256: rows.text(row, 1), timeZone: rows.text(row, 2), dayStart: dayStart,
                                       createdAt: PostgresDecoding.instant(rows, row, 4), language: rows.isNull(row, 5) ? nil : rows.text(row, 5))
            else { throw PostgresDecoding.corrupt("users", "user", rows.text(row, 0)) }
            return user
        }
    }

    func insert(_ user: User) throws {
        let inserted = try connection.execute("""
            INSERT INTO users (\(Self.columns)) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (name) DO NOTHING
            """, values(user))
        guard inserted.changed == 1 else { throw UseCaseError.userExists(name: user.name) }
    }

    func update(_ user: User) throws {
        let updated = try connection.execute(
            "UPDATE users SET token_sha256 = $2, time_zone = $3, day_start_minutes = $4, created_at = $5, language = $6 WHERE name = $1", values(user))
        guard updated.changed == 1 else { throw UseCaseError.userNotFound(name: user.name) }
    }

    func delete(named name: String) throws -> Bool {
        // Its sessions go with it (ON DELETE CASCADE).
        try connection.execute("DELETE FROM users WHERE name = $1", [.text(name)]).changed == 1
    }

    func insertSession(_ session: UserSession) throws {
        guard try user(named: session.user) != nil else { throw UseCaseError.userNotFound(name: session.user) }
        _ = try connection.execute("INSERT INTO sessions (id_sha256, user_name, csrf_token, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)", [
            .text(session.idSHA256), .text(session.user), .text(session.csrfToken), PostgresDecoding.instant(session.createdAt),
            PostgresDecoding.instant(session.expiresAt),
        ])
    }

    func session(idSHA256: String) throws -> UserSession? {
        let rows = try connection.execute("SELECT id_sha256, user_name, csrf_token, created_at, expires_at FROM sessions WHERE id_sha256 = $1",
                                          [.text(idSHA256)])
        guard rows.count == 1 else { return nil }
        return UserSession(idSHA256: rows.text(0, 0), user: rows.text(0, 1), csrfToken: rows.text(0, 2), createdAt: PostgresDecoding.instant(rows, 0, 3),
                           expiresAt: PostgresDecoding.instant(rows, 0, 4))
    }

    func deleteSession(idSHA256: String) throws -> Bool {
        try connection.execute("DELETE FROM sessions WHERE id_sha256 = $1", [.text(idSHA256)]).changed == 1
    }

    func sessionCount(at now: Date) throws -> Int {
        let rows = try connection.execute("SELECT count(*) FROM sessions WHERE expires_at > $1", [PostgresDecoding.instant(now)])
        return rows.count == 1 ? Int(rows.integer(0, 0)) : 0
    }

    func deleteSessions(of user: String) throws -> Int {
        try connection.execute("DELETE FROM sessions WHERE user_name = $1", [.text(user)]).changed
    }

    func user(named name: String) throws -> User? {
        try decode(connection.execute("SELECT \(Self.columns) FROM users WHERE name = $1", [.text(name)])).first
    }

    func user(tokenSHA256 sha256: String) throws -> User? {
        try decode(connection.execute("SELECT \(Self.columns) FROM users WHERE token_sha256 = $1", [.text(sha256)])).first
    }

    func all() throws -> [User] {
        try decode(connection.execute("SELECT \(Self.columns) FROM users ORDER BY name"))
    }
}
