import Foundation
import StackDay

/// Habits in SQLite, listed in insertion order (`seq`), with their rule revisions in
/// `habit_revisions` (the habit row's rule columns mirror the latest one); every statement is
/// scoped to `owner`.
final class SQLiteHabitRepository: HabitRepository {
    private let database: Database
    private let owner: SQLValue
    private static let columns = """
        id, name, started_on, archived_on, created_at, updated_at, goal_thousandths, unit,
        schedule_policy, schedule_params, progress_policy, progress_params, streak_policy, streak_params
        """

    // Statements are looked up by their text: built once, not on every call.
    private static let insertSQL = "INSERT INTO habits (owner, \(SQLiteHabitRepository.columns), name_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    private static let selectByNameKeySQL = "SELECT \(SQLiteHabitRepository.columns) FROM habits WHERE owner = ? AND name_key = ? ORDER BY seq LIMIT 1"
    private static let selectByIDSQL = "SELECT \(SQLiteHabitRepository.columns) FROM habits WHERE owner = ? AND id = ?"
    private static let selectAllSQL = "SELECT \(SQLiteHabitRepository.columns) FROM habits WHERE owner = ? ORDER BY seq"
    private static let revisionColumns = """
        habit_id, number, effective_from, goal_thousandths, schedule_policy, schedule_params, schedule_sha256,
        progress_policy, progress_params, progress_sha256, streak_policy, streak_params, streak_sha256, created_at
        """
    private static let insertRevisionSQL = "INSERT INTO habit_revisions (owner, \(revisionColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    private static let selectRevisionsSQL = "SELECT \(revisionColumns) FROM habit_revisions WHERE owner = ? AND habit_id = ? ORDER BY number"
    private static let selectAllRevisionsSQL = "SELECT \(revisionColumns) FROM habit_revisions WHERE owner = ? ORDER BY habit_id, number"

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
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

    /// The habit row and the revisions stored for it.
    private func decode(_ row: Statement.Row, revisions: [String: [HabitRevision]]) throws -> Habit {
        let table = "habits"
        return try Habit(
            id: RowDecoding.uuid(row, 0, table: table),
            name: row.text(1),
            startedOn: RowDecoding.day(row, 2, table: table),
            archivedOn: row.isNull(3) ? nil : RowDecoding.day(row, 3, table: table),
            createdAt: RowDecoding.instant(row, 4),
            updatedAt: RowDecoding.instant(row, 5),
            unit: row.text(7),
            revisions: revisions[row.text(0)] ?? []
        )
    }

    private func decodeRevision(_ row: Statement.Row) throws -> (habitID: String, revision: HabitRevision) {
        let table = "habit_revisions"
        func choice(_ column: Int32) throws -> PolicyChoice {
            let choice = try RowDecoding.parameters(row, column + 1, policy: row.text(column), table: table)
            guard !row.isNull(column + 2) else { return choice }
            return choice.pinned(to: row.text(column + 2))
        }
        let revision = try HabitRevision(
            number: Int(row.integer(1)), effectiveFrom: RowDecoding.day(row, 2, table: table), goal: RowDecoding.quantity(row, 3),
            schedule: choice(4), progress: choice(7), streak: choice(10), createdAt: RowDecoding.instant(row, 13)
        )
        return (row.text(0), revision)
    }

    private func revisions(of id: String) throws -> [String: [HabitRevision]] {
        [id: try database.statement(Self.selectRevisionsSQL).rows([owner, .text(id)], decodeRevision).map(\.revision)]
    }

    private func insertRevision(_ revision: HabitRevision, of habit: Habit) throws {
        var values: [SQLValue] = [
            owner, RowDecoding.idValue(habit.id), .integer(Int64(revision.number)), RowDecoding.dayValue(revision.effectiveFrom),
            .integer(RowDecoding.thousandths(revision.goal)),
        ]
        for role in PolicyRole.allCases {
            let choice = revision.choice(for: role)
            values += [.text(choice.name), .text(choice.parametersJSON), choice.sha256.map(SQLValue.text) ?? .null]
        }
        values.append(RowDecoding.instantValue(revision.createdAt))
        try database.statement(Self.insertRevisionSQL).run(values)
    }

    func insert(_ habit: Habit) throws {
        guard try database.scalarInteger("SELECT 1 FROM habits WHERE owner = ? AND id = ?", [owner, RowDecoding.idValue(habit.id)]) == nil else {
            throw RepositoryError.duplicateID(entity: "habit", id: habit.id)
        }
        try database.statement(Self.insertSQL).run([owner] + values(habit) + [.text(Habit.nameKey(for: habit.name))])
        for revision in habit.revisions { try insertRevision(revision, of: habit) }
    }

    func update(_ habit: Habit) throws {
        let id = RowDecoding.idValue(habit.id)
        let stored = try database.statement(Self.selectRevisionsSQL).rows([owner, id], decodeRevision).map(\.revision)
        // Checked before anything is written: a refused update changes nothing.
        let changes = try RevisionChanges(stored: stored, updated: habit)
        let fields = values(habit)
        try database.statement("""
            UPDATE habits SET name = ?, started_on = ?, archived_on = ?, created_at = ?, updated_at = ?, goal_thousandths = ?, unit = ?,
            schedule_policy = ?, schedule_params = ?, progress_policy = ?, progress_params = ?, streak_policy = ?, streak_params = ?,
            name_key = ?
            WHERE owner = ? AND id = ?
            """).run(Array(fields.dropFirst()) + [.text(Habit.nameKey(for: habit.name)), owner, fields[0]])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "habit", id: habit.id) }
        for revision in changes.pinned {
            var values: [SQLValue] = []
            for role in PolicyRole.allCases { values.append(revision.choice(for: role).sha256.map(SQLValue.text) ?? .null) }
            try database.statement("""
                UPDATE habit_revisions SET schedule_sha256 = coalesce(schedule_sha256, ?), progress_sha256 = coalesce(progress_sha256, ?),
                streak_sha256 = coalesce(streak_sha256, ?) WHERE owner = ? AND habit_id = ? AND number = ?
                """).run(values + [owner, id, .integer(Int64(revision.number))])
        }
        for revision in changes.appended { try insertRevision(revision, of: habit) }
    }

    func delete(id: UUID) throws {
        try database.statement("DELETE FROM habits WHERE owner = ? AND id = ?").run([owner, RowDecoding.idValue(id)])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "habit", id: id) }
    }

    func habit(id: UUID) throws -> Habit? {
        let key = UUIDText.format(id)
        return try database.statement(Self.selectByIDSQL).rows([owner, .text(key)]) { try decode($0, revisions: try revisions(of: key)) }.first
    }

    /// An index lookup on `name_key`.
    func habit(named name: String) throws -> Habit? {
        try database.statement(Self.selectByNameKeySQL).rows([owner, .text(Habit.nameKey(for: name))]) { try decode($0, revisions: try revisions(of: $0.text(0))) }.first
    }

    func hasUnpinnedRevisions() throws -> Bool {
        try database.scalarInteger("""
            SELECT 1 FROM habit_revisions WHERE owner = ? AND (schedule_sha256 IS NULL OR progress_sha256 IS NULL OR streak_sha256 IS NULL) LIMIT 1
            """, [owner]) != nil
    }

    func all() throws -> [Habit] {
        var revisions: [String: [HabitRevision]] = [:]
        for (habitID, revision) in try database.statement(Self.selectAllRevisionsSQL).rows([owner], decodeRevision) {
            revisions[habitID, default: []].append(revision)
        }
        return try database.statement(Self.selectAllSQL).rows([owner]) { try decode($0, revisions: revisions) }
    }
}
