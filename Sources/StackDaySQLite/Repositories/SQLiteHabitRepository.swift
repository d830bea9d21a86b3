import Foundation
import StackDay

/// Habits in SQLite, listed in insertion order (`seq`).
final class SQLiteHabitRepository: HabitRepository {
    private let database: Database
    private static let columns = """
        id, name, started_on, archived_on, created_at, updated_at, goal_thousandths, unit,
        schedule_policy, schedule_params, progress_policy, progress_params, streak_policy, streak_params
        """

    // Statements are looked up by their text: built once, not on every call.
    private static let insertSQL = "INSERT INTO habits (\(SQLiteHabitRepository.columns), name_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    private static let selectByNameKeySQL = "SELECT \(SQLiteHabitRepository.columns) FROM habits WHERE name_key = ? ORDER BY seq LIMIT 1"
    private static let selectByIDSQL = "SELECT \(SQLiteHabitRepository.columns) FROM habits WHERE id = ?"
    private static let selectAllSQL = "SELECT \(SQLiteHabitRepository.columns) FROM habits ORDER BY seq"

    init(database: Database) {
        self.database = database
    }

    private func values(_ habit: Habit) -> [SQLValue] {
        [
            RowDecoding.idValue(habit.id), .text(habit.name), RowDecoding.dayValue(habit.startedOn),
            habit.archivedOn.map(RowDecoding.dayValue) ?? .null,
            RowDecoding.instantValue(habit.createdAt), RowDecoding.instantValue(habit.updatedAt),
            .integer(RowDecoding.thousandths(habit.goal)), .text(habit.unit),
            .text(habit.schedule.name), .text(habit.schedule.parametersJSON),
            .text(habit.progress.name), .text(habit.progress.parametersJSON),
            .text(habit.streak.name), .text(habit.streak.parametersJSON),
        ]
    }

    private func decode(_ row: Statement.Row) throws -> Habit {
        let table = "habits"
        return try Habit(
            id: RowDecoding.uuid(row, 0, table: table),
            name: row.text(1),
            startedOn: RowDecoding.day(row, 2, table: table),
            archivedOn: row.isNull(3) ? nil : RowDecoding.day(row, 3, table: table),
            createdAt: RowDecoding.instant(row, 4),
            updatedAt: RowDecoding.instant(row, 5),
            goal: RowDecoding.quantity(row, 6),
            unit: row.text(7),
            schedule: RowDecoding.parameters(row, 9, policy: row.text(8), table: table),
            progress: RowDecoding.parameters(row, 11, policy: row.text(10), table: table),
            streak: RowDecoding.parameters(row, 13, policy: row.text(12), table: table)
        )
    }

    func insert(_ habit: Habit) throws {
        guard try database.scalarInteger("SELECT 1 FROM habits WHERE id = ?", [RowDecoding.idValue(habit.id)]) == nil else {
            throw RepositoryError.duplicateID(entity: "habit", id: habit.id)
        }
        try database.statement(Self.insertSQL).run(values(habit) + [.text(Habit.nameKey(for: habit.name))])
    }

    func update(_ habit: Habit) throws {
        let fields = values(habit)
        try database.statement("""
            UPDATE habits SET name = ?, started_on = ?, archived_on = ?, created_at = ?, updated_at = ?, goal_thousandths = ?, unit = ?,
            schedule_policy = ?, schedule_params = ?, progress_policy = ?, progress_params = ?, streak_policy = ?, streak_params = ?,
            name_key = ?
            WHERE id = ?
            """).run(Array(fields.dropFirst()) + [.text(Habit.nameKey(for: habit.name)), fields[0]])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "habit", id: habit.id) }
    }

    func delete(id: UUID) throws {
        try database.statement("DELETE FROM habits WHERE id = ?").run([RowDecoding.idValue(id)])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "habit", id: id) }
    }

    func habit(id: UUID) throws -> Habit? {
        try database.statement(Self.selectByIDSQL).rows([RowDecoding.idValue(id)], decode).first
    }

    /// An index lookup on `name_key`.
    func habit(named name: String) throws -> Habit? {
        try database.statement(Self.selectByNameKeySQL).rows([.text(Habit.nameKey(for: name))], decode).first
    }

    func all() throws -> [Habit] {
        try database.statement(Self.selectAllSQL).rows([], decode)
    }
}
