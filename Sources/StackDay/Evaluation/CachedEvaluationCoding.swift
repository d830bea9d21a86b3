import Foundation

/// How a store keeps a `CachedEvaluation` in a row: the days as one byte string of 17 bytes a day
/// (flags: 1 due, 2 skipped; progress as a little-endian IEEE double; the total in thousandths as
/// a little-endian Int64), the spans and the figures as short texts, and FNV-1a checksums, so a
/// row that was cut, edited or written by another build is recognised and ignored.
public enum CachedEvaluationCoding {
    public static let bytesPerDay = 17

    /// A row's stored fields (ISO days as text), ready to bind.
    public struct Row: Sendable {
        public let format: Int64
        public let evaluator: String
        public let firstDay: String
        public let validThrough: String?
        public let spans: String
        public let days: [UInt8]
        public let checksum: Int64
        public let summaryAsOf: String?
        public let summary: String?
    }

    /// What the checksums cover besides the row's own fields: the owner and habit it belongs to
    /// (a row copied onto another habit fails them) and the evaluator.
    public static func binding(owner: String, habitID: UUID, evaluator: String) -> String {
        "\(owner)\u{1F}\(habitID.uuidString)\u{1F}\(evaluator)"
    }

    /// The fields a store keeps for `evaluation`, a row of `owner`'s.
    public static func encode(_ evaluation: CachedEvaluation, owner: String) -> Row {
        let days = encodeDays(evaluation)
        let spans = encodeSpans(evaluation.spans)
        let bound = binding(owner: owner, habitID: evaluation.habitID, evaluator: evaluation.evaluator)
        return Row(
            format: Int64(CachedEvaluation.format), evaluator: evaluation.evaluator, firstDay: evaluation.firstDay.iso,
            validThrough: evaluation.validThrough?.iso, spans: spans, days: days,
            checksum: checksum(format: CachedEvaluation.format, evaluator: bound, firstDay: evaluation.firstDay, spans: spans, days: days),
            summaryAsOf: evaluation.summary?.asOf.iso,
            summary: evaluation.summary.map { encodeSummary($0, evaluator: bound) }
        )
    }

    /// `asOf|current,longest|completed,eligible,score|today|quota,period|checksum`; numbers that must come back
    /// exactly (score, progress, totals) as the hex of their bits. `evaluator` is the row's `binding`.
    public static func encodeSummary(_ summary: CachedSummary, evaluator: String) -> String {
        let statistics = summary.statistics.map { "\($0.completedDays),\($0.eligibleDays),\(String($0.score.bitPattern, radix: 16))" } ?? "-"
        let today = summary.today.map {
            "\($0.day.iso),\($0.isDue ? 1 : 0),\(String($0.total.bitPattern, radix: 16)),\(String($0.progress.bitPattern, radix: 16)),\($0.state.rawValue)"
        } ?? "-"
        var quota = summary.quota.map(encodeQuota) ?? "-"
        if summary.quota != nil, let period = summary.period {
            quota += ",\(period.days.first.iso),\(period.days.last.iso),\(period.count),\(period.times),\(period.state.rawValue)"
        }
        let body = "\(summary.asOf.iso)|\(summary.streak.current),\(summary.streak.longest)|\(statistics)|\(today)|\(quota)"
        return body + "|" + FNV1a.key(evaluator + "|" + body)
    }

    /// The figures `encodeSummary` wrote, or nil when any part or the checksum does not hold.
    /// Read as bytes, in one pass: `today` and `stats` read one of these per habit.
    public static func decodeSummary(_ text: String, asOf: String, evaluator: String) -> CachedSummary? {
        let bytes = Array(text.utf8)
        let parts = split(bytes[...], on: UInt8(ascii: "|"))
        guard parts.count == 6, parts[0].elementsEqual(asOf.utf8) else { return nil }
        var first = FNV1a(), second = FNV1a(seed: 0x8422_2325_cbf2_9ce4)
        let body = bytes[..<(bytes.count - parts[5].count - 1)]
        for part in [Array(evaluator.utf8), [UInt8(ascii: "|")], Array(body)] {
            first.combine(part)
            second.combine(part)
        }
        guard parts[5].elementsEqual((FNV1a.hex(first.value) + FNV1a.hex(second.value)).utf8), let day = isoDay(parts[0]) else { return nil }
        let streak = split(parts[1], on: UInt8(ascii: ",")).compactMap(integer)
        guard streak.count == 2 else { return nil }
        var statistics: HabitStatistics? = nil
        if !parts[2].elementsEqual("-".utf8) {
            let fields = split(parts[2], on: UInt8(ascii: ","))
            guard fields.count == 3, let completed = integer(fields[0]), let eligible = integer(fields[1]), let bits = hexBits(fields[2]) else { return nil }
            statistics = HabitStatistics(
                completedDays: completed, eligibleDays: eligible, completionRate: eligible == 0 ? 0 : Double(completed) / Double(eligible),
                streak: HabitStreak(current: streak[0], longest: streak[1]), score: Double(bitPattern: bits)
            )
        }
        var today: HabitEntry? = nil
        if !parts[3].elementsEqual("-".utf8) {
            let fields = split(parts[3], on: UInt8(ascii: ","))
            guard fields.count == 5, let entryDay = isoDay(fields[0]), let total = hexBits(fields[2]), let progress = hexBits(fields[3]),
                  let state = EntryState(rawValue: String(decoding: fields[4], as: UTF8.self))
            else { return nil }
            today = HabitEntry(day: entryDay, isDue: fields[1].elementsEqual("1".utf8), total: Double(bitPattern: total),
                               progress: Double(bitPattern: progress), state: state)
        }
        var quota: PeriodQuota? = nil
        var period: HabitPeriod? = nil
        if !parts[4].elementsEqual("-".utf8) {
            let fields = split(parts[4], on: UInt8(ascii: ","))
            guard let found = decodeQuota(String(decoding: fields[0], as: UTF8.self)) else { return nil }
            quota = found
            if fields.count == 6 {
                guard let first = isoDay(fields[1]), let last = isoDay(fields[2]), first <= last, let count = integer(fields[3]),
                      let times = integer(fields[4]), let state = EntryState(rawValue: String(decoding: fields[5], as: UTF8.self))
                else { return nil }
                period = HabitPeriod(days: LocalDayRange(first, last), count: count, times: times, state: state)
            } else if fields.count != 1 {
                return nil
            }
        }
        return CachedSummary(asOf: day, streak: HabitStreak(current: streak[0], longest: streak[1]), statistics: statistics, today: today,
                             quota: quota, period: period)
    }

    /// A quota as a short code: `w3` (3 a week), `s3` (3 a week from Sunday), `m10` (10 a month),
    /// `r3/7` (3 in any 7 days).
    static func encodeQuota(_ quota: PeriodQuota) -> String {
        switch quota.period {
        case .week: "\(quota.weekStart == .sunday ? "s" : "w")\(quota.times)"
        case .month: "m\(quota.times)"
        case .rolling(let days): "r\(quota.times)/\(days)"
        }
    }

    /// The quota `encodeQuota` wrote, or nil for any other text.
    static func decodeQuota(_ code: String) -> PeriodQuota? {
        let body = code.dropFirst()
        switch code.first {
        case "w": return Int(body).map { PeriodQuota(times: $0, period: .week) }
        case "s": return Int(body).map { PeriodQuota(times: $0, period: .week, weekStart: .sunday) }
        case "m": return Int(body).map { PeriodQuota(times: $0, period: .month) }
        case "r":
            let numbers = body.split(separator: "/").compactMap { Int($0) }
            return numbers.count == 2 ? PeriodQuota(times: numbers[0], period: .rolling(days: numbers[1])) : nil
        default: return nil
        }
    }

    static func split(_ bytes: ArraySlice<UInt8>, on separator: UInt8) -> [ArraySlice<UInt8>] {
        var parts: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == separator {
            parts.append(bytes[start..<index])
            start = index + 1
        }
        parts.append(bytes[start...])
        return parts
    }

    /// A non-negative decimal integer of at most 18 digits.
    static func integer(_ bytes: ArraySlice<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count <= 18 else { return nil }
        var value = 0
        for byte in bytes {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
    }

    /// 1 to 16 lowercase hex digits as a bit pattern.
    static func hexBits(_ bytes: ArraySlice<UInt8>) -> UInt64? {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            switch byte {
            case 0x30...0x39: value = value << 4 | UInt64(byte - 0x30)
            case 0x61...0x66: value = value << 4 | UInt64(byte - 0x61 + 10)
            default: return nil
            }
        }
        return value
    }

    static func isoDay(_ bytes: ArraySlice<UInt8>) -> LocalDay? {
        Array(bytes).withUnsafeBufferPointer { LocalDay(isoBytes: $0) }
    }

    public static func encodeSpans(_ spans: [CachedSpan]) -> String {
        spans.map { span in
            "\(span.days.first.iso),\(span.days.last.iso),\(span.rulesKey),\(span.quota.map(encodeQuota) ?? "-")"
        }.joined(separator: ";")
    }

    public static func decodeSpans(_ text: String) -> [CachedSpan]? {
        guard !text.isEmpty else { return [] }
        var spans: [CachedSpan] = []
        for part in text.split(separator: ";") {
            let fields = part.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 4, let first = try? LocalDay(iso: fields[0]), let last = try? LocalDay(iso: fields[1]), first <= last else { return nil }
            var quota: PeriodQuota? = nil
            if fields[3] != "-" {
                guard let found = decodeQuota(fields[3]) else { return nil }
                quota = found
            }
            spans.append(CachedSpan(days: LocalDayRange(first, last), rulesKey: fields[2], quota: quota))
        }
        return spans
    }

    public static func encodeDays(_ row: CachedEvaluation) -> [UInt8] {
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
    public static func checksum<Bytes: Sequence>(format: Int, evaluator: String, firstDay: LocalDay, spans: String, days: Bytes) -> Int64
    where Bytes.Element == UInt8 {
        var hash = FNV1a()
        hash.combine("\(format)|\(evaluator)|\(firstDay.iso)|\(spans)|".utf8)
        hash.combine(days)
        return Int64(bitPattern: hash.value)
    }

    /// The evaluation a stored row describes, or nil when any check fails: the format, the
    /// checksum over the identifying fields and days, the day flags, the spans, and the figures'
    /// own checksum (figures count only with the day they are for).
    public static func decode(
        habitID: UUID, owner: String, format: Int64, evaluator: String, firstDay: String, validThrough: String?, spans spansText: String,
        days blob: UnsafeRawBufferPointer, checksum stored: Int64, summaryAsOf: String?, summary: String?, generation: Int64
    ) -> CachedEvaluation? {
        guard format == Int64(CachedEvaluation.format), let firstDay = try? LocalDay(iso: firstDay) else { return nil }
        let bound = binding(owner: owner, habitID: habitID, evaluator: evaluator)
        // An invalidation before the first day leaves nothing valid (stored as NULL or as the empty text).
        let validThrough = validThrough.flatMap { try? LocalDay(iso: $0) }
        guard let spans = decodeSpans(spansText) else { return nil }
        guard blob.count % bytesPerDay == 0,
              checksum(format: CachedEvaluation.format, evaluator: bound, firstDay: firstDay, spans: spansText, days: blob) == stored
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
        let figures = summaryAsOf.flatMap { asOf in summary.flatMap { decodeSummary($0, asOf: asOf, evaluator: bound) } }
        let evaluation = CachedEvaluation(
            habitID: habitID, evaluator: evaluator, firstDay: firstDay, spans: spans, due: due, skipped: skipped, progress: progress,
            thousandths: thousandths, validThrough: validThrough, summary: figures, generation: generation
        )
        return evaluation.isConsistent ? evaluation : nil
    }
}
