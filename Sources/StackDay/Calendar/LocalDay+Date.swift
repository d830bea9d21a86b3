import Foundation

/// The boundary between instants and days: the only place a time zone is used.
extension LocalDay {
    /// The day an instant falls on in `timeZone`, using the zone's offset at that instant (DST aware).
    ///
    /// With a `dayStart` later than midnight, instants before it count for the previous day.
    public init(date: Date, timeZone: TimeZone, dayStart: DayStart = .midnight) {
        let offset = timeZone.secondsFromGMT(for: date)
        let wallSeconds = Int((date.timeIntervalSince1970).rounded(.down)) + offset - dayStart.minutes * 60
        // Wall-clock seconds since the local epoch have no DST jumps, so whole days are exact here.
        let secondsPerDay = 24 * 60 * 60
        let ordinal = wallSeconds >= 0 ? wallSeconds / secondsPerDay : -((-wallSeconds - 1) / secondsPerDay) - 1
        self.init(uncheckedOrdinal: ordinal)
    }

    /// Midnight UTC at the start of this day, without Foundation's calendar: UTC has no offset
    /// changes, and Unix time counts every UTC day as the same number of seconds.
    public var midnightUTC: Date {
        Date(timeIntervalSince1970: TimeInterval(ordinal) * 24 * 60 * 60)
    }

    /// The first instant of this day in `timeZone` (its `dayStart`, or the first instant after it
    /// when a DST gap skips that wall-clock time).
    public func firstInstant(in timeZone: TimeZone, dayStart: DayStart = .midnight) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = components
        let wall = DateComponents(
            year: parts.year, month: parts.month, day: parts.day,
            hour: dayStart.minutes / 60, minute: dayStart.minutes % 60
        )
        if let date = calendar.date(from: wall) {
            return date
        }
        // Foundation found no instant for that wall time; fall back to the zone's standard offset.
        let wallSeconds = Double((ordinal * 24 * 60 + dayStart.minutes) * 60)
        return Date(timeIntervalSince1970: wallSeconds - Double(timeZone.secondsFromGMT()))
    }
}
