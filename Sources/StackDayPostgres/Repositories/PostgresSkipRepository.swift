import Foundation
import StackDay

/// One user's skipped days in PostgreSQL.
final class PostgresSkipRepository: SkipRepository {
    private let connection: PostgresConnection
    private let owner: String
    private static let columns = "id, habit_id, day, recorded_at"
    private static let order = "ORDER BY day, recorded_at, id"

    init(connection: PostgresConnection, owner: String) {
        self.connection = connection
        self.owner = owner
    }

    private func decode(_ rows: PostgresRows) throws -> [Skip] {
        let table = "skips"
        return try (0..<rows.count).map { row in
            Skip(id: try PostgresDecoding.uuid(rows, row, 0, table: table), habitID: try PostgresDecoding.uuid(rows, row, 1, table: table),
                 day: try PostgresDecoding.day(rows, row, 2, table: table), recordedAt: PostgresDecoding.instant(rows, row, 3))
        }
    }

    private func values(_ skip: Skip) -> [PostgresValue] {
        [.text(owner), PostgresDecoding.id(skip.id), PostgresDecoding.id(skip.habitID), PostgresDecoding.day(skip.day), PostgresDecoding.instant(skip.recordedAt)]
    }

    func insert(_ skip: Skip) throws {
        let inserted = try connection.execute("""
            INSERT INTO skips (user_id, \(Self.columns)) VALUES ($1, $2::uuid, $3::uuid, $4::date, $5) ON CONFLICT (user_id, id) DO NOTHING
            """, values(skip))
        guard inserted.changed == 1 else { throw RepositoryError.duplicateID(entity: "skip", id: skip.id) }
    }

    func update(_ skip: Skip) throws {
        let updated = try connection.execute("UPDATE skips SET habit_id = $3::uuid, day = $4::date, recorded_at = $5 WHERE user_id = $1 AND id = $2::uuid", values(skip))
        guard updated.changed == 1 else { throw RepositoryError.notFound(entity: "skip", id: skip.id) }
    }

    func delete(id: UUID) throws {
        let deleted = try connection.execute("DELETE FROM skips WHERE user_id = $1 AND id = $2::uuid",
                                             [.text(owner), PostgresDecoding.id(id)])
        guard deleted.changed == 1 else { throw RepositoryError.notFound(entity: "skip", id: id) }
    }

    func skip(id: UUID) throws -> Skip? {
        try decode(connection.execute("SELECT \(Self.columns) FROM skips WHERE user_id = $1 AND id = $2::uuid", [.text(owner), PostgresDecoding.id(id)])).first
    }

    func skips(habitID: UUID) throws -> [Skip] {
        try decode(connection.execute("SELECT \(Self.columns) FROM skips WHERE user_id = $1 AND habit_id = $2::uuid \(Self.order)",
                                      [.text(owner), PostgresDecoding.id(habitID)]))
    }

    func skips(habitID: UUID, in days: LocalDayRange) throws -> [Skip] {
        try decode(connection.execute("""
            SELECT \(Self.columns) FROM skips WHERE user_id = $1 AND habit_id = $2::uuid AND day BETWEEN $3::date AND $4::date \(Self.order)
            """, [.text(owner), PostgresDecoding.id(habitID), PostgresDecoding.day(days.first), PostgresDecoding.day(days.last)]))
    }

    func deleteAll(habitID: UUID) throws -> Int {
        return try connection.execute("DELETE FROM skips WHERE user_id = $1 AND habit_id = $2::uuid", [.text(owner), PostgresDecoding.id(habitID)]).changed
    }
}
