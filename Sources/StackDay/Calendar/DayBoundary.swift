import Foundation

/// How a user's instants become days, and days weeks: a time zone, the time the day starts, and
/// the day the week starts.
public struct DayBoundary: Sendable, Hashable {
    public let timeZone: TimeZone
    public let dayStart: DayStart
    /// What calendars, the weekly report and new quota weeks begin on; a quota week already in
    /// a habit's rules keeps the start its schedule names.
    public let weekStart: WeekStart

    public init(timeZone: TimeZone, dayStart: DayStart = .midnight, weekStart: WeekStart = .monday) {
        self.timeZone = timeZone
        self.dayStart = dayStart
        self.weekStart = weekStart
    }

    /// The day `date` counts for.
    public func day(for date: Date) -> LocalDay {
        LocalDay(date: date, timeZone: timeZone, dayStart: dayStart)
    }

    /// The first instant of `day` for this user.
    public func firstInstant(of day: LocalDay) -> Date {
        day.firstInstant(in: timeZone, dayStart: dayStart)
    }
}
