import Foundation
import StackDay

/// One user's habits in PostgreSQL, in insertion order, with their rule revisions.
final class PostgresHabitRepository: HabitRepository {
    private let connection: PostgresConnection
    private let owner: String

    private static let columns = "id, name, started_on, archived_on, created_at, updated_at, unit"
    private static let revisionColumns = """
        habit_id, number, effective_from, goal_thousandths, schedule_policy, schedule_params, schedule_sha256,
        progress_policy, progress_params, progress_sha256, streak_policy, streak_params, streak_sha256, created_at
        """

    init(connection: PostgresConnection, owner: String) {
        self.connection = connection
        self.owner = owner
    }

    private func habits(_ whereClause: String, _ values: [PostgresValue]) throws -> [Habit] {
        let rows = try connection.execute("SELECT \(Self.columns) FROM habits WHERE user_id = $1 \(whereClause) ORDER BY seq", [.text(owner)] + values)
        guard rows.count > 0 else { return [] }
        let ids = (0..<rows.count).map { rows.text($0, 0) }
        let revisions = try self.revisions(ids.count == 1 ? "AND habit_id = $2::uuid" : "", ids.count == 1 ? [.text(ids[0])] : [])
        return try (0..<rows.count).map { row in
            let table = "habits"
            return try Habit(
                id: PostgresDecoding.uuid(rows, row, 0, table: table), name: rows.text(row, 1),
                startedOn: PostgresDecoding.day(rows, row, 2, table: table),
                archivedOn: rows.isNull(row, 3) ? nil : PostgresDecoding.day(rows, row, 3, table: table),
                createdAt: PostgresDecoding.instant(rows, row, 4), updatedAt: PostgresDecoding.instant(rows, row, 5),
                unit: rows.text(row, 6), revisions: revisions[ids[row].lowercased()] ?? []
            )
        }
    }

    /// The owner's revisions by habit id (lowercased text), in number order.
    private func revisions(_ whereClause: String, _ values: [PostgresValue]) throws -> [String: [HabitRevision]] {
        let rows = try connection.execute(
            "SELECT \(Self.revisionColumns) FROM habit_revisions WHERE user_id = $1 \(whereClause) ORDER BY habit_id, number", [.text(owner)] + values
        )
        var revisions: [String: [HabitRevision]] = [:]
        let table = "habit_revisions"
        for row in 0..<rows.count {
            let revision = try HabitRevision(
                number: Int(rows.integer(row, 1)), effectiveFrom: PostgresDecoding.day(rows, row, 2, table: table),
                goal: PostgresDecoding.quantity(rows, row, 3),
                schedule: PostgresDecoding.choice(rows, row, name: 4, table: table),
                progress: PostgresDecoding.choice(rows, row, name: 7, table: table),
                streak: PostgresDecoding.choice(rows, row, name: 10, table: table),
                createdAt: PostgresDecoding.instant(rows, row, 13)
            )
            revisions[rows.text(row, 0).lowercased(), default: []].append(revision)
        }
        return revisions
    }

    private func insertRevision(_ revision: HabitRevision, of habit: Habit) throws {
        var values: [PostgresValue] = [
            .text(owner), PostgresDecoding.id(habit.id), .integer(Int64(revision.number)), PostgresDecoding.day(revision.effectiveFrom),
            PostgresDecoding.thousandths(revision.goal),
        ]
        for role in PolicyRole.allCases {
            let choice = revision.choice(for: role)
            values += [.text(choice.name), .text(choice.parametersJSON), choice.sha256.map(PostgresValue.text) ?? .null]
        }
        values.append(PostgresDecoding.instant(revision.createdAt))
        try connection.execute("""
            INSERT INTO habit_revisions (user_id, \(Self.revisionColumns))
            VALUES ($1, $2::uuid, $3, $4::date, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
            """, values)
    }

    func insert(_ habit: Habit) throws {
        let inserted = try connection.execute("""
            INSERT INTO habits (user_id, id, name, name_key, started_on, archived_on, created_at, updated_at, unit)
            VALUES ($1, $2::uuid, $3, $4, $5::date, $6::date, $7, $8, $9) ON CONFLICT (user_id, id) DO NOTHING
            """, [.text(owner), PostgresDecoding.id(habit.id), .text(habit.name), .text(Habit.nameKey(for: habit.name)),
                  PostgresDecoding.day(habit.startedOn), habit.archivedOn.map(PostgresDecoding.day) ?? .null,
                  PostgresDecoding.instant(habit.createdAt), PostgresDecoding.instant(habit.updatedAt), .text(habit.unit)])
        guard inserted.changed == 1 else { throw RepositoryError.duplicateID(entity: "habit", id: habit.id) }
        for revision in habit.revisions { try insertRevision(revision, of: habit) }
    }

    func update(_ habit: Habit) throws {
        let stored = try revisions("AND habit_id = $2::uuid", [PostgresDecoding.id(habit.id)])[UUIDText.format(habit.id).lowercased()] ?? []
        let changes = try RevisionChanges(stored: stored, updated: habit)
        let updated = try connection.execute("""
            UPDATE habits SET name = $3, name_key = $4, started_on = $5::date, archived_on = $6::date, created_at = $7, updated_at = $8, unit = $9
            WHERE user_id = $1 AND id = $2::uuid
            """, [.text(owner), PostgresDecoding.id(habit.id), .text(habit.name), .text(Habit.nameKey(for: habit.name)),
                  PostgresDecoding.day(habit.startedOn), habit.archivedOn.map(PostgresDecoding.day) ?? .null,
                  PostgresDecoding.instant(habit.createdAt), PostgresDecoding.instant(habit.updatedAt), .text(habit.unit)])
        guard updated.changed == 1 else { throw RepositoryError.notFound(entity: "habit", id: habit.id) }
        for revision in changes.pinned {
            let pins = PolicyRole.allCases.map { revision.choice(for: $0).sha256.map(PostgresValue.text) ?? .null }
            try connection.execute("""
                UPDATE habit_revisions SET schedule_sha256 = coalesce(schedule_sha256, $4), progress_sha256 = coalesce(progress_sha256, $5),
                streak_sha256 = coalesce(streak_sha256, $6) WHERE user_id = $1 AND habit_id = $2::uuid AND number = $3
                """, [.text(owner), PostgresDecoding.id(habit.id), .integer(Int64(revision.number))] + pins)
        }
        for revision in changes.appended { try insertRevision(revision, of: habit) }
    }

    func delete(id: UUID) throws {
        let deleted = try connection.execute("DELETE FROM habits WHERE user_id = $1 AND id = $2::uuid", [.text(owner), PostgresDecoding.id(id)])
        guard deleted.changed == 1 else { throw RepositoryError.notFound(entity: "habit", id: id) }
    }

    func hasUnpinnedRevisions() throws -> Bool {
        try connection.scalar("""
            SELECT 1 FROM habit_revisions WHERE user_id = $1 AND (schedule_sha256 IS NULL OR progress_sha256 IS NULL OR streak_sha256 IS NULL) LIMIT 1
            """, [.text(owner)]) != nil
    }

    func habit(id: UUID) throws -> Habit? {
        try habits("AND id = $2::uuid", [PostgresDecoding.id(id)]).first
    }

    func habit(named name: String) throws -> Habit? {
        try habits("AND name_key = $2", [.text(Habit.nameKey(for: name))]).first
    }

    func all() throws -> [Habit] {
        try habits("", [])
    }
}
