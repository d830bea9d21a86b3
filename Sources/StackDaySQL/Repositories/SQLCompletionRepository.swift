import Foundation
import StackDay

/// Completions in either store, listed by day, then by `recorded_at`, then as `SQLDialect.tieBreak` says; every
/// statement names the owner. Imports go through the store's own bulk path when it has one
/// (`SQLBulkCompletions`: SQLite binds from a stack buffer, PostgreSQL streams `COPY`).
public final class SQLCompletionRepository: CompletionRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let bulk: (any SQLBulkCompletions)?
    private let statements: Statements

    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let insert, update, delete, byID, byHabit, byHabitAndDays, dailyTotals, dayAmounts, deleteAll: String

        init(_ dialect: SQLDialect) {
            let owner = dialect.owner
            let columns = "id, habit_id, completed_on, recorded_at, amount_thousandths, note"
            let order = "ORDER BY completed_on, recorded_at, \(dialect.tieBreak)"
            func sql(_ text: String) -> String { dialect.statement(text) }
            insert = sql("""
                INSERT INTO completions (\(owner), \(columns)) VALUES ($1, $2::uuid, $3::uuid, $4::date, $5, $6, $7) ON CONFLICT (\(owner), id) DO NOTHING
                """)
            update = sql("""
                UPDATE completions SET habit_id = $3::uuid, completed_on = $4::date, recorded_at = $5, amount_thousandths = $6, note = $7
                WHERE \(owner) = $1 AND id = $2::uuid
                """)
            delete = sql("DELETE FROM completions WHERE \(owner) = $1 AND id = $2::uuid")
            byID = sql("SELECT \(columns) FROM completions WHERE \(owner) = $1 AND id = $2::uuid")
            byHabit = sql("SELECT \(columns) FROM completions WHERE \(owner) = $1 AND habit_id = $2::uuid \(order)")
            byHabitAndDays = sql("""
                SELECT \(columns) FROM completions WHERE \(owner) = $1 AND habit_id = $2::uuid AND completed_on BETWEEN $3::date AND $4::date \(order)
                """)
            // Rows come in index order; summing consecutive equal days here is cheaper than GROUP BY.
            dailyTotals = sql("""
                SELECT completed_on, amount_thousandths FROM completions
                WHERE \(owner) = $1 AND habit_id = $2::uuid AND completed_on BETWEEN $3::date AND $4::date ORDER BY completed_on
                """)
            // From the index that covers the amount: no row of the table is read.
            dayAmounts = sql("SELECT amount_thousandths FROM completions WHERE \(owner) = $1 AND habit_id = $2::uuid AND completed_on = $3::date")
            deleteAll = sql("DELETE FROM completions WHERE \(owner) = $1 AND habit_id = $2::uuid")
        }
    }

    public init(executor: any SQLExecutor, owner: String, bulk: (any SQLBulkCompletions)? = nil) {
        self.executor = executor
        self.owner = .text(owner)
        self.bulk = bulk
        statements = .of(executor.dialect)
    }

    private func decode(_ row: any SQLRow) throws -> Completion {
        let table = "completions"
        return try Completion(
            id: row.uuid("id", table: table), habitID: row.uuid("habit_id", table: table), completedOn: row.day("completed_on", table: table),
            recordedAt: row.instant("recorded_at"), amount: row.quantity("amount_thousandths"), note: row.optionalText("note")
        )
    }

    private func values(_ completion: Completion) -> [SQLValue] {
        [owner, .id(completion.id), .id(completion.habitID), .day(completion.completedOn), .instant(completion.recordedAt),
         .integer(completion.amountThousandths), .optional(completion.note)]
    }

    public func insert(_ completion: Completion) throws {
        guard try executor.run(statements.insert, values(completion)) == 1 else {
            throw RepositoryError.duplicateID(entity: "completion", id: completion.id)
        }
    }

    public func update(_ completion: Completion) throws {
        guard try executor.run(statements.update, values(completion)) == 1 else { throw RepositoryError.notFound(entity: "completion", id: completion.id) }
    }

    public func delete(id: UUID) throws {
        guard try executor.run(statements.delete, [owner, .id(id)]) == 1 else { throw RepositoryError.notFound(entity: "completion", id: id) }
    }

    public func completion(id: UUID) throws -> Completion? {
        try executor.rows(statements.byID, [owner, .id(id)], decode).first
    }

    public func completions(habitID: UUID) throws -> [Completion] {
        try executor.rows(statements.byHabit, [owner, .id(habitID)], decode)
    }

    public func completions(habitID: UUID, in days: LocalDayRange) throws -> [Completion] {
        try executor.rows(statements.byHabitAndDays, [owner, .id(habitID), .day(days.first), .day(days.last)], decode)
    }

    public func held(habitID: UUID, on day: LocalDay) throws -> (records: Int, thousandths: Int64) {
        var held = (records: 0, thousandths: Int64(0))
        _ = try executor.rows(statements.dayAmounts, [owner, .id(habitID), .day(day)]) { row in
            held = (held.records + 1, Quantity.adding(row.integer("amount_thousandths"), to: held.thousandths))
        }
        return held
    }

    public func dailyTotals(habitID: UUID, in days: LocalDayRange) throws -> [(day: LocalDay, thousandths: Int64)] {
        var totals: [(day: LocalDay, thousandths: Int64)] = []
        _ = try executor.rows(statements.dailyTotals, [owner, .id(habitID), .day(days.first), .day(days.last)]) { row in
            let day = try row.day("completed_on", table: "completions"), amount = row.integer("amount_thousandths")
            if let last = totals.last, last.day == day {
                totals[totals.count - 1].thousandths = Quantity.adding(amount, to: last.thousandths)
            } else {
                totals.append((day, amount))
            }
        }
        return totals
    }

    public func insertIfAbsent(_ completion: Completion) throws -> Bool {
        return try executor.run(statements.insert, values(completion)) == 1
    }

    public func insertIfAbsent(_ completions: ArraySlice<Completion>) throws -> [Bool] {
        if let bulk { return try bulk.insertIfAbsent(completions) }
        return try completions.map { try insertIfAbsent($0) }
    }

    @discardableResult
    public func deleteAll(habitID: UUID) throws -> Int {
        try executor.run(statements.deleteAll, [owner, .id(habitID)])
    }
}
