import Foundation
import StackDay

/// Cached evaluations in either store, one row per owner and habit, laid out by
/// `CachedEvaluationCoding` (the days as a BLOB or bytea); the figures (`summary`) carry a
/// checksum of their own, so reading them reads no days. The schema's triggers move
/// `valid_through` back and clear `summary_as_of` on every write; a row or summary that fails
/// any check is ignored.
///
/// Reads stage rows; the store writes them after the read (`writeStaged`), each only while its
/// habit's change counter is the one it was read under, checked in the same statement.
public final class SQLEvaluationCacheRepository: EvaluationCacheRepository {
    private let executor: any SQLExecutor
    private let owner: SQLValue
    private let ownerName: String
    private let statements: Statements
    /// Rows read in this transaction's snapshot, to be written after it.
    public private(set) var staged: [CachedEvaluation] = []
    /// Groups' rows computed in this transaction's snapshot, to be written after it.
    public private(set) var stagedGroups: [CachedGroup] = []

    /// Whether any row waits to be written.
    public var hasStaged: Bool { !staged.isEmpty || !stagedGroups.isEmpty }

    /// The statements, in each dialect, made once.
    private struct Statements: DialectStatements {
        static let sqlite = Statements(.sqlite), postgres = Statements(.postgres)

        let evaluationSQL, summarySQL, summariesSQL, generationSQL, writeSQL, groupSQL, groupWriteSQL: String

        init(_ dialect: SQLDialect) {
            let column = dialect.owner
            evaluationSQL = dialect.statement("""
                SELECT c.format AS format, c.evaluator AS evaluator, c.first_day AS first_day, c.valid_through AS valid_through, c.spans AS spans,
                       c.days AS days, c.checksum AS checksum, c.summary_as_of AS summary_as_of, c.summary AS summary,
                       coalesce(g.generation, 0) AS evaluation_generation
                FROM evaluation_cache c LEFT JOIN habit_generations g ON g.\(column) = c.\(column) AND g.habit_id = c.habit_id
                WHERE c.\(column) = $1 AND c.habit_id = $2::uuid
                """)
            summarySQL = dialect.statement("SELECT format, evaluator, summary_as_of, summary FROM evaluation_cache WHERE \(column) = $1 AND habit_id = $2::uuid")
            summariesSQL = dialect.statement("SELECT habit_id, format, evaluator, summary_as_of, summary FROM evaluation_cache WHERE \(column) = $1")
            generationSQL = dialect.statement("SELECT generation AS evaluation_generation FROM habit_generations WHERE \(column) = $1 AND habit_id = $2::uuid")
            writeSQL = dialect.statement("""
                INSERT INTO evaluation_cache (\(column), habit_id, format, evaluator, first_day, valid_through, spans, days, checksum, summary_as_of, summary)
                SELECT $1, $2::uuid, $3, $4, $5, $6, $7, $8::bytea, $9, $10, $11
                FROM habits WHERE \(column) = $1 AND id = $2::uuid
                    AND coalesce((SELECT generation FROM habit_generations WHERE \(column) = $1 AND habit_id = $2::uuid), 0) = $12
                ON CONFLICT (\(column), habit_id) DO UPDATE SET format = excluded.format, evaluator = excluded.evaluator,
                    first_day = excluded.first_day, valid_through = excluded.valid_through, spans = excluded.spans, days = excluded.days,
                    checksum = excluded.checksum, summary_as_of = excluded.summary_as_of, summary = excluded.summary
                """)
            groupSQL = dialect.statement("SELECT format, evaluator, inputs_key, body, checksum FROM group_cache WHERE \(column) = $1 AND group_id = $2::uuid")
            // A row whose key no longer holds is harmless (it is never read as valid), so a group's
            // row is written whenever the group still exists.
            groupWriteSQL = dialect.statement("""
                INSERT INTO group_cache (\(column), group_id, format, evaluator, inputs_key, body, checksum)
                SELECT $1, $2::uuid, $3, $4, $5, $6::bytea, $7 FROM habit_groups WHERE \(column) = $1 AND id = $2::uuid
                ON CONFLICT (\(column), group_id) DO UPDATE SET format = excluded.format, evaluator = excluded.evaluator,
                    inputs_key = excluded.inputs_key, body = excluded.body, checksum = excluded.checksum
                """)
        }
    }

    public init(executor: any SQLExecutor, owner: String) {
        self.executor = executor
        self.owner = .text(owner)
        ownerName = owner
        statements = .of(executor.dialect)
    }

    public func evaluation(habitID: UUID) throws -> CachedEvaluation? {
        try executor.rows(statements.evaluationSQL, [owner, .id(habitID)]) { row -> CachedEvaluation? in
            let days = row.blob("days")
            return days.withUnsafeBytes { days in
                CachedEvaluationCoding.decode(
                    habitID: habitID, owner: ownerName, format: row.integer("format"), evaluator: row.text("evaluator"), firstDay: row.text("first_day"),
                    validThrough: row.optionalText("valid_through"), spans: row.text("spans"), days: days, checksum: row.integer("checksum"),
                    summaryAsOf: row.optionalText("summary_as_of"), summary: row.optionalText("summary"), generation: row.integer("evaluation_generation")
                )
            }
        }.first ?? nil
    }

    public func summary(habitID: UUID, evaluator: String) throws -> CachedSummary? {
        try executor.rows(statements.summarySQL, [owner, .id(habitID)]) { try decodeSummary($0, habitID: habitID, evaluator: evaluator) }.first ?? nil
    }

    /// Every row of the owner's in one query (`today` and `stats` read one per habit).
    public func summaries(habitIDs: [UUID], evaluator: String) throws -> [UUID: CachedSummary] {
        let wanted = Set(habitIDs)
        var found: [UUID: CachedSummary] = [:]
        for (id, summary) in try executor.rows(statements.summariesSQL, [owner], { row -> (UUID, CachedSummary?) in
            let id = try row.uuid("habit_id", table: "evaluation_cache")
            return (id, wanted.contains(id) ? try decodeSummary(row, habitID: id, evaluator: evaluator) : nil)
        }) {
            if let summary { found[id] = summary }
        }
        return found
    }

    private func decodeSummary(_ row: any SQLRow, habitID: UUID, evaluator: String) throws -> CachedSummary? {
        guard row.integer("format") == Int64(CachedEvaluation.format), row.text("evaluator") == evaluator,
              let asOf = row.optionalText("summary_as_of"), let summary = row.optionalText("summary")
        else { return nil }
        return CachedEvaluationCoding.decodeSummary(
            summary, asOf: asOf, evaluator: CachedEvaluationCoding.binding(owner: ownerName, habitID: habitID, evaluator: evaluator))
    }

    public func generation(habitID: UUID) throws -> Int64 {
        try executor.integer(statements.generationSQL, [owner, .id(habitID)], column: "evaluation_generation") ?? 0
    }

    public func stage(_ evaluation: CachedEvaluation) {
        staged.append(evaluation)
    }

    public func group(id: UUID, evaluator: String, key: String) throws -> CachedGroup? {
        try executor.rows(statements.groupSQL, [owner, .id(id)]) { row -> CachedGroup? in
            guard row.text("evaluator") == evaluator, row.text("inputs_key") == key else { return nil }
            return CachedGroupCoding.decode(groupID: id, owner: ownerName, format: row.integer("format"), evaluator: evaluator, key: key,
                                            body: row.blob("body"), checksum: row.integer("checksum"))
        }.first ?? nil
    }

    public func stage(group: CachedGroup) {
        stagedGroups.append(group)
    }

    public func discardStaged() {
        staged.removeAll()
        stagedGroups.removeAll()
    }

    /// Writes the staged rows whose habit no write has touched since they were read, and the
    /// staged groups' rows; returns how many.
    @discardableResult
    public func writeStaged() throws -> Int {
        defer { discardStaged() }
        var written = 0
        for row in staged {
            let fields = CachedEvaluationCoding.encode(row, owner: ownerName)
            written += try executor.run(statements.writeSQL, [
                owner, .id(row.habitID), .integer(fields.format), .text(fields.evaluator), .text(fields.firstDay), .optional(fields.validThrough),
                .text(fields.spans), .blob(fields.days), .integer(fields.checksum), .optional(fields.summaryAsOf), .optional(fields.summary),
                .integer(row.generation),
            ])
        }
        for group in stagedGroups {
            let fields = CachedGroupCoding.encode(group, owner: ownerName)
            written += try executor.run(statements.groupWriteSQL, [
                owner, .id(group.groupID), .integer(fields.format), .text(fields.evaluator), .text(fields.key), .blob(fields.body),
                .integer(fields.checksum),
            ])
        }
        return written
    }
}
