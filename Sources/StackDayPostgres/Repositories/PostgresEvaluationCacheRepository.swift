import Foundation
import StackDay

/// One user's cached evaluations in PostgreSQL, one row per habit, laid out by
/// `CachedEvaluationCoding` (the days as `bytea`). Reads stage rows; `PostgresHabitStore` writes
/// them after the read, for habits whose change counter is unchanged.
final class PostgresEvaluationCacheRepository: EvaluationCacheRepository {
    private let connection: PostgresConnection
    private let owner: PostgresValue
    private let ownerName: String
    /// Rows read in this transaction's snapshot, to be written after it.
    private(set) var staged: [CachedEvaluation] = []

    init(connection: PostgresConnection, owner: String) {
        self.connection = connection
        self.owner = .text(owner)
        ownerName = owner
    }

    func evaluation(habitID: UUID) throws -> CachedEvaluation? {
        let rows = try connection.execute("""
            SELECT c.format, c.evaluator, c.first_day, c.valid_through, c.spans, encode(c.days, 'hex'), c.checksum,
                   c.summary_as_of, c.summary, h.evaluation_generation
            FROM evaluation_cache c JOIN habits h ON h.user_id = c.user_id AND h.id = c.habit_id
            WHERE c.user_id = $1 AND c.habit_id = $2::uuid
            """, [owner, PostgresDecoding.id(habitID)])
        guard rows.count == 1, let days = Self.bytes(hex: rows.text(0, 5)) else { return nil }
        return days.withUnsafeBytes { days in
            CachedEvaluationCoding.decode(
                habitID: habitID, owner: ownerName, format: rows.integer(0, 0), evaluator: rows.text(0, 1), firstDay: rows.text(0, 2),
                validThrough: rows.isNull(0, 3) ? nil : rows.text(0, 3), spans: rows.text(0, 4), days: days, checksum: rows.integer(0, 6),
                summaryAsOf: rows.isNull(0, 7) ? nil : rows.text(0, 7), summary: rows.isNull(0, 8) ? nil : rows.text(0, 8),
                generation: rows.integer(0, 9)
            )
        }
    }

    func summary(habitID: UUID, evaluator: String) throws -> CachedSummary? {
        let rows = try connection.execute("""
            SELECT format, evaluator, summary_as_of, summary FROM evaluation_cache WHERE user_id = $1 AND habit_id = $2::uuid
            """, [owner, PostgresDecoding.id(habitID)])
        guard rows.count == 1, rows.integer(0, 0) == Int64(CachedEvaluation.format), rows.text(0, 1) == evaluator,
              !rows.isNull(0, 2), !rows.isNull(0, 3)
        else { return nil }
        return CachedEvaluationCoding.decodeSummary(
            rows.text(0, 3), asOf: rows.text(0, 2), evaluator: CachedEvaluationCoding.binding(owner: ownerName, habitID: habitID, evaluator: evaluator))
    }

    func generation(habitID: UUID) throws -> Int64 {
        try connection.scalar("SELECT evaluation_generation FROM habits WHERE user_id = $1 AND id = $2::uuid", [owner, PostgresDecoding.id(habitID)])
            .flatMap { Int64($0) } ?? 0
    }

    func stage(_ evaluation: CachedEvaluation) {
        staged.append(evaluation)
    }

    func discardStaged() { staged.removeAll() }

    /// Writes the staged rows whose habit no write has touched since they were read (checked in
    /// the same statement); returns how many.
    @discardableResult
    func writeStaged() throws -> Int {
        defer { staged.removeAll() }
        var written = 0
        for row in staged {
            let fields = CachedEvaluationCoding.encode(row, owner: ownerName)
            let result = try connection.execute("""
                INSERT INTO evaluation_cache (user_id, habit_id, format, evaluator, first_day, valid_through, spans, days, checksum, summary_as_of, summary)
                SELECT $1, $2::uuid, $3, $4, $5, $6, $7, decode($8, 'hex'), $9, $10, $11
                FROM habits WHERE user_id = $1 AND id = $2::uuid AND evaluation_generation = $12
                ON CONFLICT (user_id, habit_id) DO UPDATE SET format = excluded.format, evaluator = excluded.evaluator,
                    first_day = excluded.first_day, valid_through = excluded.valid_through, spans = excluded.spans, days = excluded.days,
                    checksum = excluded.checksum, summary_as_of = excluded.summary_as_of, summary = excluded.summary
                """, [
                    owner, PostgresDecoding.id(row.habitID), .integer(fields.format), .text(fields.evaluator), .text(fields.firstDay),
                    fields.validThrough.map(PostgresValue.text) ?? .null, .text(fields.spans), .text(Self.hex(fields.days)), .integer(fields.checksum),
                    fields.summaryAsOf.map(PostgresValue.text) ?? .null, fields.summary.map(PostgresValue.text) ?? .null, .integer(row.generation),
                ])
            written += result.changed
        }
        return written
    }

    private static let digits = Array("0123456789abcdef".utf8)

    static func hex(_ bytes: [UInt8]) -> String {
        var text = [UInt8](repeating: 0, count: bytes.count * 2)
        for (index, byte) in bytes.enumerated() {
            text[index * 2] = digits[Int(byte >> 4)]
            text[index * 2 + 1] = digits[Int(byte & 15)]
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of lowercase or uppercase hex text; nil for anything else.
    static func bytes(hex text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
            default: nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: utf8.count / 2)
        for index in bytes.indices {
            guard let high = nibble(utf8[index * 2]), let low = nibble(utf8[index * 2 + 1]) else { return nil }
            bytes[index] = high << 4 | low
        }
        return bytes
    }
}
