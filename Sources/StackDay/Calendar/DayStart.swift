/// The wall-clock time at which a user's day begins (default midnight).
///
/// With a 03:00 day start, something recorded at 01:30 counts for the previous day.
public struct DayStart: Hashable, Sendable, CustomStringConvertible {
    /// Minutes after midnight, 0 ..< 1440.
    public let minutes: Int

    public static let midnight = DayStart(uncheckedMinutes: 0)

    /// Throws `DayStartError` unless `0 <= hour < 24` and `0 <= minute < 60`.
    public init(hour: Int, minute: Int = 0) throws(DayStartError) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else {
            throw DayStartError(text: "\(hour):\(minute)")
        }
        self.minutes = hour * 60 + minute
    }

    /// Parses `HH:MM`.
    public init(parsing text: String) throws(DayStartError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.count == 2 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }),
              let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute)
        else { throw DayStartError(text: text) }
        self.minutes = hour * 60 + minute
    }

    init(uncheckedMinutes: Int) {
        self.minutes = uncheckedMinutes
    }

    public var description: String {
        let hour = minutes / 60, minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}

/// A day start that is not a valid `HH:MM` time of day.
public struct DayStartError: Error, Equatable, Sendable, CustomStringConvertible {
    public let text: String
    public var description: String { "'\(text)' is not a time of day; expected HH:MM between 00:00 and 23:59" }
}
