import Foundation

extension DayBoundary {
    /// The instant `reminder` rings on `day`: the first moment the user's wall clock shows its time
    /// within the day (a time before the day's start belongs to the next calendar date). A time a
    /// DST gap skips rings when the gap ends (02:30 on a spring-forward night rings at 03:00); a
    /// time a fall-back hour shows twice rings the first time.
    public func instant(of reminder: ReminderTime, on day: LocalDay) -> Date {
        let minutes = reminder.minutes < dayStart.minutes ? reminder.minutes + 24 * 60 : reminder.minutes
        // The wall-clock time as seconds since the local epoch, then each offset the zone has
        // around it: an instant is right when the zone's offset there is the one it assumed.
        let wall = TimeInterval((day.ordinal * 24 * 60 + minutes) * 60)
        let offsets = [timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - 36 * 3600)),
                       timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall + 36 * 3600))]
        let fitting = offsets.map { Date(timeIntervalSince1970: wall - TimeInterval($0)) }
            .filter { TimeInterval(timeZone.secondsFromGMT(for: $0)) == wall - $0.timeIntervalSince1970 }
        if let first = fitting.min() { return first }
        // In a gap: the transition that skipped it, which lies between the two guesses.
        let earlier = Date(timeIntervalSince1970: wall - TimeInterval(offsets.max() ?? 0))
        return timeZone.nextDaylightSavingTimeTransition(after: earlier.addingTimeInterval(-1)) ?? earlier
    }
}
