import Foundation
import StackDay

/// Cached evaluations in SQLite, one row per habit. The days are one BLOB of 17 bytes a day
/// (flags: 1 due, 2 skipped; progress as a little-endian IEEE double; the total in thousandths
/// as a little-endian Int64) with an FNV-1a checksum over the row's identifying fields and its
/// days; the figures (`summary`) carry a checksum of their own, so reading them reads no days.
/// Writes move `valid_through` back and clear `summary_as_of`. A row or summary that fails any
/// check is ignored.
final class SQLiteEvaluationCacheRepository: EvaluationCacheRepository {
    private let database: Database
    private let owner: SQLValue
    /// Rows read in this transaction's snapshot, to be written after it (see `SQLiteHabitStore`).
    private(set) var staged: [CachedEvaluation] = []

    static let bytesPerDay = 17

    init(database: Database, owner: String) {
        self.database = database
        self.owner = .text(owner)
    }

    func evaluation(habitID: UUID) throws -> CachedEvaluation? {
        try database.statement("""
            SELECT c.format, c.evaluator, c.first_day, c.valid_through, c.spans, c.days, c.checksum,
                   c.summary_as_of, c.summary, h.evaluation_generation
            FROM evaluation_cache c JOIN habits h ON h.owner = c.owner AND h.id = c.habit_id WHERE c.owner = ? AND c.habit_id = ?
            """).rows([owner, RowDecoding.idValue(habitID)]) { Self.decode($0, habitID: habitID) }.first ?? nil
    }

    func summary(habitID: UUID, evaluator: String) throws -> CachedSummary? {
        try database.statement("""
            SELECT format, evaluator, summary_as_of, summary FROM evaluation_cache WHERE owner = ? AND habit_id = ?
            """).rows([owner, RowDecoding.idValue(habitID)]) { row -> CachedSummary? in
                guard row.integer(0) == Int64(CachedEvaluation.format), row.text(1) == evaluator, !row.isNull(2), !row.isNull(3) else { return nil }
                return Self.decodeSummary(row.text(3), asOf: row.text(2), evaluator: evaluator)
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
            let days = Self.encodeDays(row)
            let spans = Self.encodeSpans(row.spans)
            try database.statement("""
                INSERT INTO evaluation_cache (owner, habit_id, format, evaluator, first_day, valid_through, spans, days, checksum, summary_as_of, summary)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (owner, habit_id) DO UPDATE SET format = excluded.format, evaluator = excluded.evaluator,
                    first_day = excluded.first_day, valid_through = excluded.valid_through, spans = excluded.spans, days = excluded.days,
                    checksum = excluded.checksum, summary_as_of = excluded.summary_as_of, summary = excluded.summary
                """).run([
                    owner, RowDecoding.idValue(row.habitID), .integer(Int64(CachedEvaluation.format)), .text(row.evaluator),
                    RowDecoding.dayValue(row.firstDay), row.validThrough.map(RowDecoding.dayValue) ?? .null, .text(spans), .blob(days),
                    .integer(Self.checksum(format: CachedEvaluation.format, evaluator: row.evaluator, firstDay: row.firstDay, spans: spans, days: days)),
                    row.summary.map { RowDecoding.dayValue($0.asOf) } ?? .null,
                    row.summary.map { .text(Self.encodeSummary($0, evaluator: row.evaluator)) } ?? .null,
                ])
            written += 1
        }
        return written
    }

    /// `asOf|current,longest|completed,eligible,score|today|checksum`; numbers that must come back
    /// exactly (score, progress, totals) as the hex of their bits.
    static func encodeSummary(_ summary: CachedSummary, evaluator: String) -> String {
        let statistics = summary.statistics.map { "\($0.completedDays),\($0.eligibleDays),\(String($0.score.bitPattern, radix: 16))" } ?? "-"
        let today = summary.today.map {
            "\($0.day.iso),\($0.isDue ? 1 : 0),\(String($0.total.bitPattern, radix: 16)),\(String($0.progress.bitPattern, radix: 16)),\($0.state.rawValue)"
        } ?? "-"
        let body = "\(summary.asOf.iso)|\(summary.streak.current),\(summary.streak.longest)|\(statistics)|\(today)"
        return body + "|" + FNV1a.key(evaluator + "|" + body)
    }

    static func decodeSummary(_ text: String, asOf: String, evaluator: String) -> CachedSummary? {
        let parts = text.split(separator: "|", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 5, parts[0] == asOf, FNV1a.key(evaluator + "|" + parts[0...3].joined(separator: "|")) == parts[4],
              let day = try? LocalDay(iso: parts[0])
        else { return nil }
        let streak = parts[1].split(separator: ",").compactMap { Int($0) }
        guard streak.count == 2 else { return nil }
        var statistics: HabitStatistics? = nil
        if parts[2] != "-" {
            let fields = parts[2].split(separator: ",").map(String.init)
            guard fields.count == 3, let completed = Int(fields[0]), let eligible = Int(fields[1]), let bits = UInt64(fields[2], radix: 16) else { return nil }
            statistics = HabitStatistics(
                completedDays: completed, eligibleDays: eligible, completionRate: eligible == 0 ? 0 : Double(completed) / Double(eligible),
                streak: HabitStreak(current: streak[0], longest: streak[1]), score: Double(bitPattern: bits)
            )
        }
        var today: HabitEntry? = nil
        if parts[3] != "-" {
            let fields = parts[3].split(separator: ",").map(String.init)
            guard fields.count == 5, let entryDay = try? LocalDay(iso: fields[0]), let total = UInt64(fields[2], radix: 16),
                  let progress = UInt64(fields[3], radix: 16), let state = EntryState(rawValue: fields[4])
            else { return nil }
            today = HabitEntry(day: entryDay, isDue: fields[1] == "1", total: Double(bitPattern: total), progress: Double(bitPattern: progress), state: state)
        }
        return CachedSummary(asOf: day, streak: HabitStreak(current: streak[0], longest: streak[1]), statistics: statistics, today: today)
    }

    // MARK: Encoding

    static func encodeSpans(_ spans: [CachedSpan]) -> String {
        spans.map { span in
            var quota = "-"
            if let value = span.quota {
                switch value.period {
                case .week: quota = "w\(value.times)"
                case .month: quota = "m\(value.times)"
                case .rolling(let days): quota = "r\(value.times)/\(days)"
                }
            }
            return "\(span.days.first.iso),\(span.days.last.iso),\(span.rulesKey),\(quota)"
        }.joined(separator: ";")
    }

    static func decodeSpans(_ text: String) -> [CachedSpan]? {
        guard !text.isEmpty else { return [] }
        var spans: [CachedSpan] = []
        for part in text.split(separator: ";") {
            let fields = part.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let first = try? LocalDay(iso: fields[0]), let last = try? LocalDay(iso: fields[1]), first <= last else { return nil }
            var quota: PeriodQuota? = nil
            let code = fields[3]
            if code != "-" {
                let body = code.dropFirst()
                switch code.first {
                case "w": guard let times = Int(body) else { return nil }; quota = PeriodQuota(times: times, period: .week)
                case "m": guard let times = Int(body) else { return nil }; quota = PeriodQuota(times: times, period: .month)
                case "r":
                    let numbers = body.split(separator: "/").compactMap { Int($0) }
                    guard numbers.count == 2 else { return nil }
                    quota = PeriodQuota(times: numbers[0], period: .rolling(days: numbers[1]))
                default: return nil
                }
            }
            spans.append(CachedSpan(days: LocalDayRange(first, last), rulesKey: fields[2], quota: quota))
        }
        return spans
    }

    static func encodeDays(_ row: CachedEvaluation) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: row.count * bytesPerDay)
        bytes.withUnsafeMutableBytes { buffer in
            for index in 0..<row.count {
                let offset = index * bytesPerDay
                buffer[offset] = (row.due[index] ? 1 : 0) | (row.skipped[index] ? 2 : 0)
                buffer.storeBytes(of: row.progress[index].bitPattern.littleEndian, toByteOffset: offset + 1, as: UInt64.self)
                buffer.storeBytes(of: row.thousandths[index].littleEndian, toByteOffset: offset + 9, as: Int64.self)
            }
        }
        return bytes
    }

    /// FNV-1a, 64 bits, over the row's identifying fields and its days.
    static func checksum<Bytes: Sequence>(format: Int, evaluator: String, firstDay: LocalDay, spans: String, days: Bytes) -> Int64
    where Bytes.Element == UInt8 {
        var hash = FNV1a()
        hash.combine("\(format)|\(evaluator)|\(firstDay.iso)|\(spans)|".utf8)
        hash.combine(days)
        return Int64(bitPattern: hash.value)
    }

    static func decode(_ row: Statement.Row, habitID: UUID) -> CachedEvaluation? {
        guard row.integer(0) == Int64(CachedEvaluation.format) else { return nil }
        let evaluator = row.text(1)
        guard let firstDay = try? LocalDay(iso: row.text(2)) else { return nil }
        var validThrough: LocalDay? = nil
        if !row.isNull(3) {
            // An invalidation before the first day leaves the empty text: nothing is valid.
            validThrough = try? LocalDay(iso: row.text(3))
        }
        let spansText = row.text(4)
        guard let spans = decodeSpans(spansText) else { return nil }
        let blob = row.blob(5)
        guard blob.count % bytesPerDay == 0,
              checksum(format: CachedEvaluation.format, evaluator: evaluator, firstDay: firstDay, spans: spansText, days: blob) == row.integer(6)
        else { return nil }
        let count = blob.count / bytesPerDay
        var due = [Bool](repeating: false, count: count), skipped = [Bool](repeating: false, count: count)
        var progress = [Double](repeating: 0, count: count), thousandths = [Int64](repeating: 0, count: count)
        for index in 0..<count {
            let offset = index * bytesPerDay
            let flags = blob[offset]
            guard flags & ~3 == 0 else { return nil }
            due[index] = flags & 1 != 0
            skipped[index] = flags & 2 != 0
            progress[index] = Double(bitPattern: UInt64(littleEndian: blob.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self)))
            thousandths[index] = Int64(littleEndian: blob.loadUnaligned(fromByteOffset: offset + 9, as: Int64.self))
        }
        // Figures count only with the day they are for (writes clear that day).
        let summary = row.isNull(7) || row.isNull(8) ? nil : decodeSummary(row.text(8), asOf: row.text(7), evaluator: evaluator)
        let evaluation = CachedEvaluation(
            habitID: habitID, evaluator: evaluator, firstDay: firstDay, spans: spans, due: due, skipped: skipped, progress: progress,
            thousandths: thousandths, validThrough: validThrough, summary: summary, generation: row.integer(9)
        )
        return evaluation.isConsistent ? evaluation : nil
    }
}
