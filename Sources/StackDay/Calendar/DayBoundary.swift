import Foundation

/// How a user's instants become days: a time zone and the time the day starts.
public struct DayBoundary: Sendable, Hashable {
    public let timeZone: TimeZone
    public let dayStart: DayStart

    public init(timeZone: TimeZone, dayStart: DayStart = .midnight) {
        self.timeZone = timeZone
        self.dayStart = dayStart
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
