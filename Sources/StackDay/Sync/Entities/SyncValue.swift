/// What one field of a synced entity may hold, as the wire and the stores carry it: the rule its
/// value is checked by when a change arrives, and what stands in when a device from before the
/// field left it out.
public enum SyncValue: Sendable, Equatable {
    /// Text of 1 to `limit` characters (0 to `limit` when `empty`), without NUL.
    case text(limit: Int, empty: Bool)
    case optionalText(limit: Int)
    case uuid
    case day
    case optionalDay
    /// Seconds since 1970, finite.
    case instant
    /// A whole number of at least 1.
    case count
    /// A policy's parameters: a JSON object, as text.
    case parameters
    /// A script's SHA-256 (64 lowercase hex digits).
    case hash
    /// A script's SHA-256, or null while a revision is unpinned.
    case optionalHash
    /// Reminder times as stored (`08:00,21:00`); empty, null or absent for none.
    case reminders
    /// A habit's place in its list (`Habit.position`); absent for 0, from a device older than positions.
    case position
    /// A habit's colour tag (`HabitColor`), or null or absent for none.
    case colorTag
    /// A whole number of at least 1, or null or absent.
    case optionalCount
    /// 0 or 1; absent for 0, from a device older than the field.
    case flag
    /// A group's members: 1 to `GroupRevision.memberLimit` distinct habit ids (UUIDs in upper
    /// case), in the group's order.
    case members

    /// Whether a change may leave this field out (a device from before the field was added):
    /// the default stands in.
    public var mayBeAbsent: Bool { problem(nil) == nil }

    /// Whether `json` is a value this field may hold; nil when it is, else why not.
    func problem(_ json: JSONValue?) -> String? {
        let text = json?.stringValue
        switch self {
        case .text(let limit, let empty):
            guard let text else { return "must be a string" }
            return Self.textProblem(text, limit: limit, empty: empty)
        case .optionalText(let limit):
            if json == .null || json == nil { return nil }
            guard let text else { return "must be a string or null" }
            return Self.textProblem(text, limit: limit, empty: false)
        case .uuid: return text.map(Self.isUUID) == true ? nil : "must be a UUID in upper case"
        case .day: return text.flatMap { try? LocalDay(iso: $0) } == nil ? "must be a day (YYYY-MM-DD)" : nil
        case .optionalDay:
            if json == .null || json == nil { return nil }
            return text.flatMap { try? LocalDay(iso: $0) } == nil ? "must be a day (YYYY-MM-DD) or null" : nil
        case .instant:
            guard let number = json?.numberValue, number.isFinite, abs(number) < 1e12 else { return "must be a time in seconds since 1970" }
            return nil
        case .count:
            guard let number = json?.numberValue, number.rounded() == number, number >= 1, number < 9e15 else { return "must be a whole number of at least 1" }
            return nil
        case .parameters:
            guard let text, (try? JSONValue(parsing: text))?.objectValue != nil else { return "must be a JSON object as text" }
            return nil
        case .hash:
            return text.map(PolicyScript.isHash) == true ? nil : "must be a SHA-256 (64 lowercase hex digits)"
        case .optionalHash:
            if json == .null || json == nil { return nil }
            return text.map(PolicyScript.isHash) == true ? nil : "must be a SHA-256 (64 lowercase hex digits) or null"
        case .position:
            guard let json, json != .null else { return nil }
            guard let number = json.numberValue, number.rounded() == number, number >= 0, number <= Double(Habit.positionLimit) else {
                return "must be a whole number from 0 to \(Habit.positionLimit)"
            }
            return nil
        case .colorTag:
            guard let json, json != .null else { return nil }
            return text.flatMap(HabitColor.init(rawValue:)) == nil ? "must be one of \(HabitColor.names), or null" : nil
        case .optionalCount:
            guard let json, json != .null else { return nil }
            guard let number = json.numberValue, number.rounded() == number, number >= 1, number < 9e15 else { return "must be a whole number of at least 1, or null" }
            return nil
        case .flag:
            guard let json, json != .null else { return nil }
            return json.numberValue == 0 || json.numberValue == 1 ? nil : "must be 0 or 1"
        case .members:
            guard let items = json?.arrayValue, (1...GroupRevision.memberLimit).contains(items.count),
                  items.allSatisfy({ $0.stringValue.map(Self.isUUID) == true }), Set(items.compactMap(\.stringValue)).count == items.count else {
                return "must be 1 to \(GroupRevision.memberLimit) distinct habit ids"
            }
            return nil
        case .reminders:
            if json == .null || json == nil || text == "" { return nil }
            guard let text, let times = try? ReminderTime.list([text]), ReminderTime.stored(times) == text else {
                return "must be reminder times as stored (HH:MM, sorted, comma-separated, at most \(ReminderTime.limit)) or empty"
            }
            return nil
        }
    }

    /// A UUID in its canonical text (`UUIDText`): upper case, hyphenated.
    static func isUUID(_ text: String) -> Bool {
        UUIDText.isCanonical(text)
    }

    private static func textProblem(_ text: String, limit: Int, empty: Bool) -> String? {
        if text.unicodeScalars.contains("\u{0}") { return "must not hold a NUL character" }
        if text.isEmpty, !empty { return "must not be empty" }
        if text.count > limit { return "must be at most \(limit) characters" }
        return nil
    }
}
