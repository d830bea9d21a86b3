import Foundation
import StackDay

/// Cached evaluations in SQLite, one row per owner and habit, laid out by `CachedEvaluationCoding`
/// (the days as a BLOB); the figures (`summary`) carry a checksum of their own, so reading them
/// reads no days.
/// Writes move `valid_through` back and clear `summary_as_of`. A row or summary that fails any
/// check is ignored.
final class SQLiteEvaluationCacheRepository: EvaluationCacheRepository {
    private let database: Database
    private let owner: SQLValue
    private let ownerName: String
    /// Rows read in this transaction's snapshot, to be written after it (see `SQLiteHabitStore`).
    private(set) var staged: [CachedEvaluation] = []

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
        ownerName = owner
    }

    func evaluation(habitID: UUID) throws -> CachedEvaluation? {
        try database.statement("""
            SELECT c.format, c.evaluator, c.first_day, c.valid_through, c.spans, c.days, c.checksum,
                   c.summary_as_of, c.summary, h.evaluation_generation
            FROM evaluation_cache c JOIN habits h ON h.owner = c.owner AND h.id = c.habit_id WHERE c.owner = ? AND c.habit_id = ?
            """).rows([owner, RowDecoding.idValue(habitID)]) { Self.decode($0, habitID: habitID, owner: ownerName) }.first ?? nil
    }

    func summary(habitID: UUID, evaluator: String) throws -> CachedSummary? {
        try database.statement("""
            SELECT format, evaluator, summary_as_of, summary FROM evaluation_cache WHERE owner = ? AND habit_id = ?
            """).rows([owner, RowDecoding.idValue(habitID)]) { row -> CachedSummary? in
                guard row.integer(0) == Int64(CachedEvaluation.format), row.text(1) == evaluator, !row.isNull(2), !row.isNull(3) else { return nil }
                return CachedEvaluationCoding.decodeSummary(
                    row.text(3), asOf: row.text(2), evaluator: CachedEvaluationCoding.binding(owner: ownerName, habitID: habitID, evaluator: evaluator))
            }.first ?? nil
    }

    func generation(habitID: UUID) throws -> Int64 {
        try database.scalarInteger("SELECT evaluation_generation FROM habits WHERE owner = ? AND id = ?", [owner, RowDecoding.idValue(habitID)]) ?? 0
    }

    func stage(_ evaluation: CachedEvaluation) {
        staged.append(evaluation)
    }

    func discardStaged() { staged.removeAll() }

    /// Writes the staged rows whose habit no write has touched since they were read; returns how many.
    @discardableResult
    func writeStaged() throws -> Int {
        defer { staged.removeAll() }
        var written = 0
        for row in staged {
            guard try generation(habitID: row.habitID) == row.generation else { continue }
            let fields = CachedEvaluationCoding.encode(row, owner: ownerName)
            try database.statement("""
                INSERT INTO evaluation_cache (owner, habit_id, format, evaluator, first_day, valid_through, spans, days, checksum, summary_as_of, summary)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (owner, habit_id) DO UPDATE SET format = excluded.format, evaluator = excluded.evaluator,
                    first_day = excluded.first_day, valid_through = excluded.valid_through, spans = excluded.spans, days = excluded.days,
                    checksum = excluded.checksum, summary_as_of = excluded.summary_as_of, summary = excluded.summary
                """).run([
                    owner, RowDecoding.idValue(row.habitID), .integer(fields.format), .text(fields.evaluator), .text(fields.firstDay),
                    fields.validThrough.map(SQLValue.text) ?? .null, .text(fields.spans), .blob(fields.days), .integer(fields.checksum),
                    fields.summaryAsOf.map(SQLValue.text) ?? .null, fields.summary.map(SQLValue.text) ?? .null,
                ])
            written += 1
        }
        return written
    }

    static func decode(_ row: Statement.Row, habitID: UUID, owner: String) -> CachedEvaluation? {
        CachedEvaluationCoding.decode(
            habitID: habitID, owner: owner, format: row.integer(0), evaluator: row.text(1), firstDay: row.text(2),
            validThrough: row.isNull(3) ? nil : row.text(3), spans: row.text(4), days: row.blob(5), checksum: row.integer(6),
            summaryAsOf: row.isNull(7) ? nil : row.text(7), summary: row.isNull(8) ? nil : row.text(8), generation: row.integer(9)
        )
    }
}
