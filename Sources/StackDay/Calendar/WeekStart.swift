/// The day a user's weeks begin on: Monday (ISO 8601, the default) or Sunday. Quota weeks
/// ("3 times a week"), calendars, the weekly report and "this week" all follow it.
public enum WeekStart: String, CaseIterable, Sendable, Hashable {
    case monday = "mon"
    case sunday = "sun"

    /// The ISO weekday of the first day (1 Monday … 7 Sunday).
    public var isoWeekday: Int {
        switch self {
        case .monday: 1
        case .sunday: 7
        }
    }

    /// The start whose first day is ISO weekday `weekday`; nil for a weekday no start begins on.
    public init?(isoWeekday weekday: Int) {
        guard let start = WeekStart.allCases.first(where: { $0.isoWeekday == weekday }) else { return nil }
        self = start
    }

    /// The seven ISO weekdays in the order a week starting here shows them.
    public var weekdays: [Int] { (0..<7).map { (isoWeekday - 1 + $0) % 7 + 1 } }
}
