import Foundation
import StackDay

/// Completions in SQLite, listed by day, then by `recorded_at`; every statement is scoped to `owner`.
final class SQLiteCompletionRepository: CompletionRepository {
    private let database: Database
    private let owner: SQLValue
    private let ownerBytes: [UInt8]
    private static let columns = "id, habit_id, completed_on, recorded_at, amount_thousandths"
    private static let order = "ORDER BY completed_on, recorded_at, rowid"

    // Statements are looked up by their text: built once, not on every call.
    private static let insertSQL = "INSERT INTO completions (owner, \(SQLiteCompletionRepository.columns)) VALUES (?, ?, ?, ?, ?, ?)"
    private static let selectByIDSQL = "SELECT \(SQLiteCompletionRepository.columns) FROM completions WHERE owner = ? AND id = ?"
    private static let selectByHabitSQL = "SELECT \(SQLiteCompletionRepository.columns) FROM completions WHERE owner = ? AND habit_id = ? \(SQLiteCompletionRepository.order)"
    private static let selectByHabitAndDaysSQL = "SELECT \(SQLiteCompletionRepository.columns) FROM completions WHERE owner = ? AND habit_id = ? AND completed_on BETWEEN ? AND ? \(SQLiteCompletionRepository.order)"
    private static let dailyAmountsSQL = """
        SELECT completed_on, amount_thousandths FROM completions
        WHERE owner = ? AND habit_id = ? AND completed_on BETWEEN ? AND ? ORDER BY completed_on
        """
    private static let insertIfAbsentSQL = "INSERT INTO completions (owner, \(SQLiteCompletionRepository.columns)) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (owner, id) DO NOTHING"

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
        ownerBytes = Array(owner.utf8)
    }

    private func decode(_ row: Statement.Row) throws -> Completion {
        let table = "completions"
        return try Completion(
            id: RowDecoding.uuid(row, 0, table: table),
            habitID: RowDecoding.uuid(row, 1, table: table),
            completedOn: RowDecoding.day(row, 2, table: table),
            recordedAt: RowDecoding.instant(row, 3),
            amount: RowDecoding.quantity(row, 4)
        )
    }

    private func values(_ completion: Completion) -> [SQLValue] {
        [
            RowDecoding.idValue(completion.id), RowDecoding.idValue(completion.habitID), RowDecoding.dayValue(completion.completedOn),
            RowDecoding.instantValue(completion.recordedAt), .integer(completion.amountThousandths),
        ]
    }

    func insert(_ completion: Completion) throws {
        guard try self.completion(id: completion.id) == nil else { throw RepositoryError.duplicateID(entity: "completion", id: completion.id) }
        try database.statement(Self.insertSQL).run([owner] + values(completion))
    }

    func update(_ completion: Completion) throws {
        let fields = values(completion)
        try database.statement("UPDATE completions SET habit_id = ?, completed_on = ?, recorded_at = ?, amount_thousandths = ? WHERE owner = ? AND id = ?")
            .run(Array(fields.dropFirst()) + [owner, fields[0]])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "completion", id: completion.id) }
    }

    func delete(id: UUID) throws {
        try database.statement("DELETE FROM completions WHERE owner = ? AND id = ?").run([owner, RowDecoding.idValue(id)])
        guard database.changes == 1 else { throw RepositoryError.notFound(entity: "completion", id: id) }
    }

    func completion(id: UUID) throws -> Completion? {
        try database.statement(Self.selectByIDSQL).rows([owner, RowDecoding.idValue(id)], decode).first
    }

    func completions(habitID: UUID) throws -> [Completion] {
        try database.statement(Self.selectByHabitSQL)
            .rows([owner, RowDecoding.idValue(habitID)], decode)
    }

    func completions(habitID: UUID, in days: LocalDayRange) throws -> [Completion] {
        try database.statement(Self.selectByHabitAndDaysSQL)
            .rows([owner, RowDecoding.idValue(habitID), RowDecoding.dayValue(days.first), RowDecoding.dayValue(days.last)], decode)
    }

    func dailyTotals(habitID: UUID, in days: LocalDayRange) throws -> [(day: LocalDay, thousandths: Int64)] {
        // Rows come in index order; summing consecutive equal days here is cheaper than GROUP BY.
        var totals: [(day: LocalDay, thousandths: Int64)] = []
        try database.statement(Self.dailyAmountsSQL)
            .forEachRow([owner, RowDecoding.idValue(habitID), RowDecoding.dayValue(days.first), RowDecoding.dayValue(days.last)]) { row in
                let day = try RowDecoding.day(row, 0, table: "completions")
                let amount = row.integer(1)
                if let last = totals.last, last.day == day {
                    totals[totals.count - 1].thousandths += amount
                } else {
                    totals.append((day, amount))
                }
            }
        return totals
    }

    func insertIfAbsent(_ completion: Completion) throws -> Bool {
        // Imports call this for every row: the values are bound from a stack buffer, not Strings.
        let statement = try database.statement(Self.insertIfAbsentSQL)
        statement.reset()
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 82) { buffer in
            UUIDText.write(completion.id, into: UnsafeMutableBufferPointer(rebasing: buffer[0..<36]))
            UUIDText.write(completion.habitID, into: UnsafeMutableBufferPointer(rebasing: buffer[36..<72]))
            completion.completedOn.writeISO(into: UnsafeMutableBufferPointer(rebasing: buffer[72..<82]))
            let bytes = UnsafeBufferPointer(buffer)
            try statement.bind(2, text: UnsafeBufferPointer(rebasing: bytes[0..<36]))
            try statement.bind(3, text: UnsafeBufferPointer(rebasing: bytes[36..<72]))
            try statement.bind(4, text: UnsafeBufferPointer(rebasing: bytes[72..<82]))
        }
        try ownerBytes.withUnsafeBufferPointer { try statement.bind(1, text: $0) }
        try statement.bind(5, real: completion.recordedAt.timeIntervalSince1970)
        try statement.bind(6, integer: completion.amountThousandths)
        try statement.execute()
        guard database.changes == 1 else { return false }
        return true
    }

    func deleteAll(habitID: UUID) throws -> Int {
        try database.statement("DELETE FROM completions WHERE owner = ? AND habit_id = ?").run([owner, RowDecoding.idValue(habitID)])
        return database.changes
    }
}
