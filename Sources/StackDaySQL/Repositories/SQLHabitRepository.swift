import Foundation
import StackDay

/// Habits and their rule revisions in either store, in insertion order (`seq`); every statement
/// names the owner.
public final class SQLHabitRepository: HabitRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let statements: Statements

    /// The statements, in each dialect, made once.
    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let insert, update, delete, byID, byNameKey, all, revisionsOf, insertRevision, pin, unpinned: String

        init(_ dialect: SQLDialect) {
            let owner = dialect.owner
            let columns = "id, name, started_on, archived_on, created_at, updated_at, unit, position, color_tag, step_thousandths, question, description"
            let revisionColumns = """
                habit_id, number, effective_from, goal_thousandths, schedule_policy, schedule_params, schedule_sha256,
                progress_policy, progress_params, progress_sha256, streak_policy, streak_params, streak_sha256, created_at, reminders, takes_back
                """
            func sql(_ text: String) -> String { dialect.statement(text) }
            insert = sql("""
                INSERT INTO habits (\(owner), id, name, name_key, started_on, archived_on, created_at, updated_at, unit, position, color_tag, step_thousandths,
                question, description)
                VALUES ($1, $2::uuid, $3, $4, $5::date, $6::date, $7, $8, $9, $10, $11, $12, $13, $14) ON CONFLICT (\(owner), id) DO NOTHING
                """)
            update = sql("""
                UPDATE habits SET name = $3, name_key = $4, started_on = $5::date, archived_on = $6::date, created_at = $7, updated_at = $8, unit = $9,
                position = $10, color_tag = $11, step_thousandths = $12, question = $13, description = $14
                WHERE \(owner) = $1 AND id = $2::uuid
                """)
            delete = sql("DELETE FROM habits WHERE \(owner) = $1 AND id = $2::uuid")
            byID = sql("SELECT \(columns) FROM habits WHERE \(owner) = $1 AND id = $2::uuid")
            byNameKey = sql("SELECT \(columns) FROM habits WHERE \(owner) = $1 AND name_key = $2 ORDER BY seq LIMIT 1")
            // By position, then creation order, then id: the same on every replica (a synced habit
            // keeps its position, created_at and id).
            // Every habit with its revisions in one statement, a row per revision (the revision's
            // `created_at` as `revision_created_at`); a habit without any still comes, to fail.
            func names(_ list: String) -> [Substring] { list.split { $0 == "," || $0 == " " || $0 == "\n" } }
            let joined = names(columns).map { "h." + $0 }
                + names(revisionColumns).map { $0 == "created_at" ? "r.created_at AS revision_created_at" : "r." + $0 }
            all = sql("""
                SELECT \(joined.joined(separator: ", ")) FROM habits AS h
                LEFT JOIN habit_revisions AS r ON r.\(owner) = h.\(owner) AND r.habit_id = h.id
                WHERE h.\(owner) = $1 ORDER BY h.position, h.created_at, upper(CAST(h.id AS TEXT)), r.number
                """)
            revisionsOf = sql("SELECT \(revisionColumns) FROM habit_revisions WHERE \(owner) = $1 AND habit_id = $2::uuid ORDER BY number")
            insertRevision = sql("""
                INSERT INTO habit_revisions (\(owner), \(revisionColumns))
                VALUES ($1, $2::uuid, $3, $4::date, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17)
                """)
            pin = sql("""
                UPDATE habit_revisions SET schedule_sha256 = coalesce(schedule_sha256, $4), progress_sha256 = coalesce(progress_sha256, $5),
                streak_sha256 = coalesce(streak_sha256, $6) WHERE \(owner) = $1 AND habit_id = $2::uuid AND number = $3
                """)
            unpinned = sql("""
                SELECT 1 AS found FROM habit_revisions
                WHERE \(owner) = $1 AND (schedule_sha256 IS NULL OR progress_sha256 IS NULL OR streak_sha256 IS NULL) LIMIT 1
                """)
        }
    }

    public init(executor: any SQLExecutor, owner: String) {
        self.executor = executor
        self.owner = .text(owner)
        statements = .of(executor.dialect)
    }

    private func values(_ habit: Habit) -> [SQLValue] {
        [owner, .id(habit.id), .text(habit.name), .text(Habit.nameKey(for: habit.name)), .day(habit.startedOn), .day(habit.archivedOn),
         .instant(habit.createdAt), .instant(habit.updatedAt), .text(habit.unit), .integer(Int64(habit.position)),
         habit.colorTag.map { .text($0.rawValue) } ?? .null, habit.step.map { .thousandths($0) } ?? .null, .optional(habit.question), .optional(habit.details)]
    }

    /// A habit's own columns, read before its revisions are.
    private struct StoredHabit {
        let id: UUID, name: String, startedOn: LocalDay, archivedOn: LocalDay?, createdAt: Date, updatedAt: Date, unit: String
        let position: Int, colorTag: HabitColor?, step: Double?, question: String?, details: String?

        func habit(_ revisions: [HabitRevision]) throws -> Habit {
            try Habit(id: id, name: name, startedOn: startedOn, archivedOn: archivedOn, createdAt: createdAt, updatedAt: updatedAt, unit: unit,
                      revisions: revisions, position: position, colorTag: colorTag, step: step, question: question, details: details)
        }
    }

    private func stored(_ row: any SQLRow) throws -> StoredHabit {
        let table = "habits"
        return StoredHabit(
            id: try row.uuid("id", table: table), name: row.text("name"), startedOn: try row.day("started_on", table: table),
            archivedOn: try row.optionalDay("archived_on", table: table), createdAt: row.instant("created_at"), updatedAt: row.instant("updated_at"),
            unit: row.text("unit"), position: Int(row.integer("position")), colorTag: try Self.colorTag(row),
            step: row.isNull("step_thousandths") ? nil : row.quantity("step_thousandths"),
            question: row.isNull("question") ? nil : row.text("question"), details: row.isNull("description") ? nil : row.text("description")
        )
    }

    private func decode(_ row: any SQLRow, revisions: [UUID: [HabitRevision]]) throws -> Habit {
        let habit = try stored(row)
        return try habit.habit(revisions[habit.id] ?? [])
    }

    /// A revision's row; `createdAt` names the column of its `created_at` (aliased in a join).
    private func decodeRevision(_ row: any SQLRow, createdAt: String = "created_at") throws -> (habitID: UUID, revision: HabitRevision) {
        let table = "habit_revisions"
        let revision = try HabitRevision(
            number: Int(row.integer("number")), effectiveFrom: row.day("effective_from", table: table), goal: row.quantity("goal_thousandths"),
            schedule: row.choice(.schedule, table: table), progress: row.choice(.progress, table: table), streak: row.choice(.streak, table: table),
            createdAt: row.instant(createdAt), reminders: try Self.reminders(row.text("reminders")),
            takesBack: row.isNull("takes_back") ? nil : Int(row.integer("takes_back"))
        )
        return (try row.uuid("habit_id", table: table), revision)
    }

    /// A stored colour tag; a name no build knows fails its row.
    static func colorTag(_ row: any SQLRow) throws -> HabitColor? {
        guard !row.isNull("color_tag") else { return nil }
        let text = row.text("color_tag")
        guard let tag = HabitColor(rawValue: text) else { throw SQLRowError(table: "habits", column: "color_tag", value: text) }
        return tag
    }

    /// Reminder times as stored (`08:00,21:00`); a text that is not such a list fails its row.
    static func reminders(_ text: String) throws -> [ReminderTime] {
        guard !text.isEmpty else { return [] }
        do { return try ReminderTime.list([text]) } catch {
            throw SQLRowError(table: "habit_revisions", column: "reminders", value: text)
        }
    }

    private func revisions(of id: UUID) throws -> [UUID: [HabitRevision]] {
        [id: try executor.rows(statements.revisionsOf, [owner, .id(id)]) { try decodeRevision($0) }.map(\.revision)]
    }

    private func insertRevision(_ revision: HabitRevision, of habit: Habit) throws {
        var values: [SQLValue] = [owner, .id(habit.id), .integer(Int64(revision.number)), .day(revision.effectiveFrom), .thousandths(revision.goal)]
        for role in PolicyRole.habitRoles {
            let choice = revision.choice(for: role)
            values += [.text(choice.name), .text(choice.parametersJSON), .optional(choice.sha256)]
        }
        values += [.instant(revision.createdAt), .text(ReminderTime.stored(revision.reminders)), revision.takesBack.map { .integer(Int64($0)) } ?? .null]
        try executor.run(statements.insertRevision, values)
    }

    public func insert(_ habit: Habit) throws {
        guard try executor.run(statements.insert, values(habit)) == 1 else { throw RepositoryError.duplicateID(entity: "habit", id: habit.id) }
        for revision in habit.revisions { try insertRevision(revision, of: habit) }
    }

    public func update(_ habit: Habit) throws {
        // Checked before anything is written: a refused update changes nothing.
        let changes = try RevisionChanges(stored: try revisions(of: habit.id)[habit.id] ?? [], updated: habit)
        guard try executor.run(statements.update, values(habit)) == 1 else { throw RepositoryError.notFound(entity: "habit", id: habit.id) }
        for revision in changes.pinned {
            let pins = PolicyRole.habitRoles.map { SQLValue.optional(revision.choice(for: $0).sha256) }
            try executor.run(statements.pin, [owner, .id(habit.id), .integer(Int64(revision.number))] + pins)
        }
        for revision in changes.appended { try insertRevision(revision, of: habit) }
    }

    public func delete(id: UUID) throws {
        guard try executor.run(statements.delete, [owner, .id(id)]) == 1 else { throw RepositoryError.notFound(entity: "habit", id: id) }
    }

    public func habit(id: UUID) throws -> Habit? {
        try executor.rows(statements.byID, [owner, .id(id)]) { try decode($0, revisions: try revisions(of: id)) }.first
    }

    /// An index lookup on `name_key`.
    public func habit(named name: String) throws -> Habit? {
        try executor.rows(statements.byNameKey, [owner, .text(Habit.nameKey(for: name))]) { row in
            try decode(row, revisions: try revisions(of: try row.uuid("id", table: "habits")))
        }.first
    }

    /// One statement: the habits in list order, each with its revisions.
    public func all() throws -> [Habit] {
        var habits: [StoredHabit] = []
        var revisions: [UUID: [HabitRevision]] = [:]
        _ = try executor.rows(statements.all, [owner]) { row -> Void in
            let habit = try stored(row)
            if habits.last?.id != habit.id { habits.append(habit) }
            if !row.isNull("number") { revisions[habit.id, default: []].append(try decodeRevision(row, createdAt: "revision_created_at").revision) }
        }
        return try habits.map { try $0.habit(revisions[$0.id] ?? []) }
    }

    public func hasUnpinnedRevisions() throws -> Bool {
        try executor.integer(statements.unpinned, [owner], column: "found") != nil
    }
}
