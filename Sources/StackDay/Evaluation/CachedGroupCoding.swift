import Foundation

/// How a store keeps a `CachedGroup` in a row: the key and evaluator as texts, the rest as one
/// little-endian byte string (the first day as ISO text; per day its state, due flag, progress,
/// total and score; the figures; today's members with their names and units), and an FNV-1a
/// checksum over the owner, group, evaluator, key and bytes, so that a row cut, edited, copied
/// onto another group or written by another build is recognised and ignored.
public enum CachedGroupCoding {
    /// A row's stored fields, ready to bind.
    public struct Row: Sendable {
        public let format: Int64
        public let evaluator: String
        public let key: String
        public let body: [UInt8]
        public let checksum: Int64
    }

    /// The fields a store keeps for `group`, a row of `owner`'s.
    public static func encode(_ group: CachedGroup, owner: String) -> Row {
        var writer = Writer()
        writer.text(group.days.first?.day.iso ?? "")
        writer.integer(group.days.count)
        for (entry, score) in zip(group.days, group.scores) {
            writer.bytes.append(UInt8(EntryState.allCases.firstIndex(of: entry.state) ?? 0))
            writer.bytes.append(entry.isDue ? 1 : 0)
            for number in [entry.progress, entry.total, score] { writer.number(number) }
        }
        let statistics = group.statistics
        for value in [statistics.completedDays, statistics.eligibleDays, statistics.streak.current, statistics.streak.longest] { writer.integer(value) }
        writer.number(statistics.score)
        writer.integer(group.todayMembers.count)
        for member in group.todayMembers {
            writer.text(member.name)
            writer.bytes.append(UInt8(EntryState.allCases.firstIndex(of: member.state) ?? 0))
            for number in [member.progress, member.total, member.goal] { writer.number(number) }
            writer.text(member.unit)
        }
        return Row(format: Int64(CachedGroup.format), evaluator: group.evaluator, key: group.key, body: writer.bytes,
                   checksum: checksum(owner: owner, groupID: group.groupID, evaluator: group.evaluator, key: group.key, body: writer.bytes))
    }

    /// The group a stored row describes, or nil when any check fails.
    public static func decode(groupID: UUID, owner: String, format: Int64, evaluator: String, key: String, body: [UInt8], checksum stored: Int64) -> CachedGroup? {
        guard format == Int64(CachedGroup.format),
              checksum(owner: owner, groupID: groupID, evaluator: evaluator, key: key, body: body) == stored
        else { return nil }
        var reader = Reader(bytes: body)
        guard let firstText = reader.text(), let count = reader.integer(), count >= 0, count <= body.count else { return nil }
        var days: [HabitEntry] = [], scores: [Double] = []
        if count > 0 {
            guard let first = try? LocalDay(iso: firstText) else { return nil }
            days.reserveCapacity(count)
            for offset in 0..<count {
                guard let state = reader.state(), let due = reader.byte(), due <= 1,
                      let progress = reader.number(), let total = reader.number(), let score = reader.number()
                else { return nil }
                days.append(HabitEntry(day: first.adding(days: offset), isDue: due == 1, total: total, progress: progress, state: state))
                scores.append(score)
            }
        }
        guard let completed = reader.integer(), let eligible = reader.integer(), let current = reader.integer(), let longest = reader.integer(),
              let score = reader.number(), let memberCount = reader.integer(), memberCount >= 0, memberCount <= GroupRevision.memberLimit
        else { return nil }
        var members: [GroupMemberDay] = []
        for _ in 0..<memberCount {
            guard let name = reader.text(), let state = reader.state(), let progress = reader.number(), let total = reader.number(),
                  let goal = reader.number(), let unit = reader.text()
            else { return nil }
            members.append(GroupMemberDay(name: name, state: state, progress: progress, total: total, goal: goal, unit: unit))
        }
        guard reader.isAtEnd else { return nil }
        let statistics = HabitStatistics(completedDays: completed, eligibleDays: eligible,
                                         completionRate: eligible == 0 ? 0 : Double(completed) / Double(eligible),
                                         streak: HabitStreak(current: current, longest: longest), score: score)
        return CachedGroup(groupID: groupID, evaluator: evaluator, key: key, days: days, scores: scores, todayMembers: members, statistics: statistics)
    }

    /// FNV-1a, 64 bits, over what the row is bound to and its bytes.
    static func checksum(owner: String, groupID: UUID, evaluator: String, key: String, body: [UInt8]) -> Int64 {
        var hash = FNV1a()
        hash.combine("\(CachedGroup.format)\u{1F}\(owner)\u{1F}\(groupID.uuidString)\u{1F}\(evaluator)\u{1F}\(key)\u{1F}".utf8)
        hash.combine(body)
        return Int64(bitPattern: hash.value)
    }

    /// Appends little-endian fields.
    private struct Writer {
        var bytes: [UInt8] = []

        mutating func integer(_ value: Int) {
            withUnsafeBytes(of: Int64(value).littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func number(_ value: Double) {
            withUnsafeBytes(of: value.bitPattern.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func text(_ value: String) {
            integer(value.utf8.count)
            bytes.append(contentsOf: value.utf8)
        }
    }

    /// Reads what `Writer` wrote; nil past the end or for a value out of range.
    private struct Reader {
        let bytes: [UInt8]
        var offset = 0

        var isAtEnd: Bool { offset == bytes.count }

        mutating func byte() -> UInt8? {
            guard offset < bytes.count else { return nil }
            defer { offset += 1 }
            return bytes[offset]
        }

        mutating func word() -> UInt64? {
            guard bytes.count - offset >= 8 else { return nil }
            var value: UInt64 = 0
            for index in (0..<8).reversed() { value = value << 8 | UInt64(bytes[offset + index]) }
            offset += 8
            return value
        }

        mutating func integer() -> Int? {
            word().map { Int(Int64(bitPattern: $0)) }
        }

        mutating func number() -> Double? {
            word().map { Double(bitPattern: $0) }
        }

        mutating func state() -> EntryState? {
            byte().flatMap { Int($0) < EntryState.allCases.count ? EntryState.allCases[Int($0)] : nil }
        }

        mutating func text() -> String? {
            guard let count = integer(), count >= 0, count <= bytes.count - offset else { return nil }
            defer { offset += count }
            return String(decoding: bytes[offset..<offset + count], as: UTF8.self)
        }
    }
}
