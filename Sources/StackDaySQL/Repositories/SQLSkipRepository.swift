import Foundation
import StackDay

/// Skipped days in either store, listed by day, then by `recorded_at`, then as `SQLDialect.tieBreak` says; every
/// statement names the owner.
public final class SQLSkipRepository: SkipRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let statements: Statements

    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let insert, update, delete, byID, byHabit, byHabitAndDays, deleteAll: String

        init(_ dialect: SQLDialect) {
            let owner = dialect.owner
            let columns = "id, habit_id, day, recorded_at"
            let order = "ORDER BY day, recorded_at, \(dialect.tieBreak)"
            func sql(_ text: String) -> String { dialect.statement(text) }
            insert = sql("INSERT INTO skips (\(owner), \(columns)) VALUES ($1, $2::uuid, $3::uuid, $4::date, $5) ON CONFLICT (\(owner), id) DO NOTHING")
            update = sql("UPDATE skips SET habit_id = $3::uuid, day = $4::date, recorded_at = $5 WHERE \(owner) = $1 AND id = $2::uuid")
            delete = sql("DELETE FROM skips WHERE \(owner) = $1 AND id = $2::uuid")
            byID = sql("SELECT \(columns) FROM skips WHERE \(owner) = $1 AND id = $2::uuid")
            byHabit = sql("SELECT \(columns) FROM skips WHERE \(owner) = $1 AND habit_id = $2::uuid \(order)")
            byHabitAndDays = sql("SELECT \(columns) FROM skips WHERE \(owner) = $1 AND habit_id = $2::uuid AND day BETWEEN $3::date AND $4::date \(order)")
            deleteAll = sql("DELETE FROM skips WHERE \(owner) = $1 AND habit_id = $2::uuid")
        }
    }

    public init(executor: any SQLExecutor, owner: String) {
        self.executor = executor
        self.owner = .text(owner)
        statements = .of(executor.dialect)
    }

    private func decode(_ row: any SQLRow) throws -> Skip {
        let table = "skips"
        return Skip(id: try row.uuid("id", table: table), habitID: try row.uuid("habit_id", table: table), day: try row.day("day", table: table),
                    recordedAt: row.instant("recorded_at"))
    }

    private func values(_ skip: Skip) -> [SQLValue] {
        [owner, .id(skip.id), .id(skip.habitID), .day(skip.day), .instant(skip.recordedAt)]
    }

    public func insert(_ skip: Skip) throws {
        guard try executor.run(statements.insert, values(skip)) == 1 else { throw RepositoryError.duplicateID(entity: "skip", id: skip.id) }
    }

    public func update(_ skip: Skip) throws {
        guard try executor.run(statements.update, values(skip)) == 1 else { throw RepositoryError.notFound(entity: "skip", id: skip.id) }
    }

    public func delete(id: UUID) throws {
        guard try executor.run(statements.delete, [owner, .id(id)]) == 1 else { throw RepositoryError.notFound(entity: "skip", id: id) }
    }

    public func skip(id: UUID) throws -> Skip? {
        try executor.rows(statements.byID, [owner, .id(id)], decode).first
    }

    public func skips(habitID: UUID) throws -> [Skip] {
        try executor.rows(statements.byHabit, [owner, .id(habitID)], decode)
    }

    public func skips(habitID: UUID, in days: LocalDayRange) throws -> [Skip] {
        try executor.rows(statements.byHabitAndDays, [owner, .id(habitID), .day(days.first), .day(days.last)], decode)
    }

    public func deleteAll(habitID: UUID) throws -> Int {
        try executor.run(statements.deleteAll, [owner, .id(habitID)])
    }
}
