/// A calendar day in the proleptic Gregorian calendar, with no time of day and no time zone.
///
/// A `LocalDay` is stored as its day number (days since 1970-01-01), so comparing,
/// hashing and moving by days are integer operations. Building one from parts
/// validates them: 2026-02-30 or month 13 throws `LocalDayError`.
/// Supported years: 1 through 9999.
public struct LocalDay: Hashable, Comparable, Sendable {
    /// Days since 1970-01-01 (negative before it).
    public let ordinal: Int

    /// The earliest supported day, 0001-01-01.
    public static let earliest = LocalDay(uncheckedOrdinal: CivilDate.ordinal(year: 1, month: 1, day: 1))
    /// The latest supported day, 9999-12-31.
    public static let latest = LocalDay(uncheckedOrdinal: CivilDate.ordinal(year: 9999, month: 12, day: 31))

    /// Builds a day from its parts; throws `LocalDayError` for a date that does not exist.
    public init(year: Int, month: Int, day: Int) throws(LocalDayError) {
        guard (1...9999).contains(year) else { throw .yearOutOfRange(year) }
        guard (1...12).contains(month) else { throw .invalidMonth(month) }
        let length = CivilDate.daysInMonth(year: year, month: month)
        guard (1...length).contains(day) else {
            throw .invalidDay(year: year, month: month, day: day)
        }
        self.ordinal = CivilDate.ordinal(year: year, month: month, day: day)
    }

    /// Builds a day from its day number; throws when it falls outside 0001-01-01 … 9999-12-31.
    public init(ordinal: Int) throws(LocalDayError) {
        guard (LocalDay.earliest.ordinal...LocalDay.latest.ordinal).contains(ordinal) else {
            throw .ordinalOutOfRange(ordinal)
        }
        self.ordinal = ordinal
    }

    /// Whether the day lies within 0001-01-01 … 9999-12-31; days computed by `adding(days:)` or
    /// from an instant are not checked, so what is stored is checked with this.
    public var isSupported: Bool { (LocalDay.earliest.ordinal...LocalDay.latest.ordinal).contains(ordinal) }

    init(uncheckedOrdinal: Int) {
        self.ordinal = uncheckedOrdinal
    }

    /// The year, month and day, computed from the day number.
    public var components: (year: Int, month: Int, day: Int) {
        CivilDate.components(ordinal: ordinal)
    }

    public var year: Int { components.year }
    public var month: Int { components.month }
    public var day: Int { components.day }

    /// ISO 8601 weekday: 1 = Monday … 7 = Sunday.
    public var weekday: Int {
        // 1970-01-01 was a Thursday (4).
        let zeroBased = (ordinal + 3) % 7
        return (zeroBased < 0 ? zeroBased + 7 : zeroBased) + 1
    }

    /// The number of days in this day's month (28…31).
    public var daysInMonth: Int {
        let parts = components
        return CivilDate.daysInMonth(year: parts.year, month: parts.month)
    }

    /// The day of the year, 1 for January 1st.
    public var yearDay: Int {
        ordinal - CivilDate.ordinal(year: year, month: 1, day: 1) + 1
    }

    /// Whether this day's year is a leap year.
    public var isInLeapYear: Bool { CivilDate.isLeapYear(year) }

    /// The day `days` later (earlier when negative).
    public func adding(days: Int) -> LocalDay {
        LocalDay(uncheckedOrdinal: ordinal + days)
    }

    /// The number of days from this day to `other`: positive when `other` is later.
    public func days(to other: LocalDay) -> Int {
        other.ordinal - ordinal
    }

    /// The Monday of this day's ISO week.
    public var startOfWeek: LocalDay { adding(days: 1 - weekday) }

    /// The first day of this day's week, for weeks that begin on `start`.
    public func startOfWeek(_ start: WeekStart) -> LocalDay {
        adding(days: -((weekday - start.isoWeekday + 7) % 7))
    }

    /// The first day of this day's month.
    public var startOfMonth: LocalDay { adding(days: 1 - day) }

    public static func < (lhs: LocalDay, rhs: LocalDay) -> Bool {
        lhs.ordinal < rhs.ordinal
    }
}
