import Foundation
import StackDay

/// Skipped days in SQLite, listed by day; every statement is scoped to `owner`.
final class SQLiteSkipRepository: SkipRepository {
    private let database: Database
    private let owner: SQLValue
    private static let columns = "id, habit_id, day, recorded_at"
    private static let order = "ORDER BY day, recorded_at, rowid"

    // Statements are looked up by their text: built once, not on every call.
    private static let insertSQL = "INSERT INTO skips (owner, \(SQLiteSkipRepository.columns)) VALUES (?, ?, ?, ?, ?)"
    private static let selectByIDSQL = "SELECT \(SQLiteSkipRepository.columns) FROM skips WHERE owner = ? AND id = ?"
    private static let selectByHabitSQL = "SELECT \(SQLiteSkipRepository.columns) FROM skips WHERE owner = ? AND habit_id = ? \(SQLiteSkipRepository.order)"
    private static let selectByHabitAndDaysSQL = "SELECT \(SQLiteSkipRepository.columns) FROM skips WHERE owner = ? AND habit_id = ? AND day BETWEEN ? AND ? \(SQLiteSkipRepository.order)"

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
    }

    private func decode(_ row: Statement.Row) throws -> Skip {
        Skip(
            id: try RowDecoding.uuid(row, 0, table: "skips"),
            habitID: try RowDecoding.uuid(row, 1, table: "skips"),
            day: try RowDecoding.day(row, 2, table: "skips"),
            recordedAt: RowDecoding.instant(row, 3)
        )
    }

    private func values(_ skip: Skip) -> [SQLValue] {
        [RowDecoding.idValue(skip.id), RowDecoding.idValue(skip.habitID), RowDecoding.dayValue(skip.day), RowDecoding.instantValue(skip.recordedAt)]
    }

    func insert(_ skip: Skip) throws {
        guard try self.skip(id: skip.id) == nil else { throw RepositoryError.duplicateID(entity: "skip", id: skip.id) }
        try database.statement(Self.insertSQL).run([owner] + values(skip))
    }

    func update(_ skip: Skip) throws {
        let fields = values(skip)
        try database.statement("UPDATE skips SET habit_id = ?, day = ?, recorded_at = ? WHERE owner = ? AND id = ?")
            .run(Array(fields.dropFirst()) + [owner, fields[0]])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "skip", id: skip.id) }
    }

    func delete(id: UUID) throws {
        try database.statement("DELETE FROM skips WHERE owner = ? AND id = ?").run([owner, RowDecoding.idValue(id)])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "skip", id: id) }
    }

    func skip(id: UUID) throws -> Skip? {
        try database.statement(Self.selectByIDSQL).rows([owner, RowDecoding.idValue(id)], decode).first
    }

    func skips(habitID: UUID) throws -> [Skip] {
        try database.statement(Self.selectByHabitSQL).rows([owner, RowDecoding.idValue(habitID)], decode)
    }

    func skips(habitID: UUID, in days: LocalDayRange) throws -> [Skip] {
        try database.statement(Self.selectByHabitAndDaysSQL)
            .rows([owner, RowDecoding.idValue(habitID), RowDecoding.dayValue(days.first), RowDecoding.dayValue(days.last)], decode)
    }

    func deleteAll(habitID: UUID) throws -> Int {
        try database.statement("DELETE FROM skips WHERE owner = ? AND habit_id = ?").run([owner, RowDecoding.idValue(habitID)])
        return database.changes
    }
}
