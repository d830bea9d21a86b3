/// A time of day a habit reminds at (`HH:MM` in the user's zone), kept with the habit's rules:
/// a calendar feed rings at it on each due day.
public struct ReminderTime: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Minutes after midnight, 0 ..< 1440.
    public let minutes: Int

    /// Parses `HH:MM` as a day start is parsed; throws `DayStartError` naming the text.
    public init(parsing text: String) throws(DayStartError) {
        minutes = try DayStart(parsing: text).minutes
    }

    /// `minutes` after midnight, taken into 0 ..< 1440 (a time the day before is its time of day).
    public init(minutes: Int) {
        self.minutes = ((minutes % 1440) + 1440) % 1440
    }

    /// The most reminders one habit keeps.
    public static let limit = 8

    /// Times as given: `21:00`, `08:00, 21:00` or `08:00 21:00` (or several texts), `none` for
    /// none; sorted, each once. Throws `ReminderTimeError` for a text that is not a time, or for
    /// more than `limit`.
    public static func list(_ texts: [String]) throws(ReminderTimeError) -> [ReminderTime] {
        let words = texts.flatMap { $0.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init) }
        if words.map({ $0.lowercased() }) == ["none"] { return [] }
        var times = Set<ReminderTime>()
        for word in words {
            do { times.insert(try ReminderTime(parsing: word)) } catch { throw .notATime(word) }
        }
        guard times.count <= limit else { throw .tooMany(times.count) }
        return times.sorted()
    }

    /// As stored: `08:00,21:00` (empty for none).
    public static func stored(_ times: [ReminderTime]) -> String { times.map(\.description).joined(separator: ",") }

    public static func < (lhs: ReminderTime, rhs: ReminderTime) -> Bool { lhs.minutes < rhs.minutes }

    public var description: String { DayStart(uncheckedMinutes: minutes).description }
}

/// Reminder times that cannot be kept.
public enum ReminderTimeError: Error, Equatable, Sendable, CustomStringConvertible {
    case notATime(String)
    case tooMany(Int)

    public var description: String {
        switch self {
        case .notATime(let text): "'\(text)' is not a time of day; expected HH:MM between 00:00 and 23:59, or none"
        case .tooMany(let count): "\(count) reminder times; a habit keeps at most \(ReminderTime.limit)"
        }
    }
}
