import Foundation
import StackDay

/// The database's users in PostgreSQL (`users`, keyed by name; the token's hash is unique).
final class PostgresUserRepository: UserRepository {
    private let connection: PostgresConnection
    private static let columns = "name, token_sha256, time_zone, day_start_minutes, created_at"

    init(connection: PostgresConnection) {
        self.connection = connection
    }

    private func values(_ user: User) -> [PostgresValue] {
        [.text(user.name), .text(user.tokenSHA256), .text(user.timeZone), .integer(Int64(user.dayStart.minutes)), PostgresDecoding.instant(user.createdAt)]
    }

    private func decode(_ rows: PostgresRows) throws -> [User] {
        try (0..<rows.count).map { row in
            let minutes = Int(rows.integer(row, 3))
            guard let dayStart = try? DayStart(hour: minutes / 60, minute: minutes % 60),
                  let user = try? User(name: rows.text(row, 0), tokenSHA256: rows.text(row, 1), timeZone: rows.text(row, 2), dayStart: dayStart,
                                       createdAt: PostgresDecoding.instant(rows, row, 4))
            else { throw PostgresDecoding.corrupt("users", "user", rows.text(row, 0)) }
            return user
        }
    }

    func insert(_ user: User) throws {
        let inserted = try connection.execute("""
            INSERT INTO users (\(Self.columns)) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (name) DO NOTHING
            """, values(user))
        guard inserted.changed == 1 else { throw UseCaseError.userExists(name: user.name) }
    }

    func update(_ user: User) throws {
        let updated = try connection.execute(
            "UPDATE users SET token_sha256 = $2, time_zone = $3, day_start_minutes = $4, created_at = $5 WHERE name = $1", values(user))
        guard updated.changed == 1 else { throw UseCaseError.userNotFound(name: user.name) }
    }

    func delete(named name: String) throws -> Bool {
        try connection.execute("DELETE FROM users WHERE name = $1", [.text(name)]).changed == 1
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
