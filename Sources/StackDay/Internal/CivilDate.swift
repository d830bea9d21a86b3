/// Integer conversions between Gregorian year/month/day and day numbers (days since 1970-01-01).
///
/// The Gregorian calendar repeats every 400 years, 146,097 days. Counted from 1 March of year 0,
/// each leap day ends a counted year, so a day number splits into whole cycles, centuries (36,524
/// days; a cycle's last is one longer), four-year spans (1,461 days; a century's last is one
/// shorter) and years of 365 days. This is the decomposition of H. Hinnant's "chrono-Compatible
/// Low-Level Date Algorithms" (2013), written in terms of those spans and a table of month starts;
/// the C core's calendar (`day_view.c`) uses the same.
enum CivilDate {
    private static let daysPerCycle = 146_097
    private static let daysPerCentury = 36_524
    private static let daysPerSpan = 1461
    /// Days from 0000-03-01 to 1970-01-01.
    private static let marchZeroToEpoch = 719_468
    /// Where each month starts in a year counted from 1 March: March, April, … January, February.
    private static let marchMonthStart = [0, 31, 61, 92, 122, 153, 184, 214, 245, 275, 306, 337]

    static func isLeapYear(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `a ÷ b` rounded down, for `b > 0`.
    private static func floorDivide(_ a: Int, _ b: Int) -> Int {
        let quotient = a / b
        return a % b < 0 ? quotient - 1 : quotient
    }

    static func ordinal(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let cycles = floorDivide(marchYear, 400)
        let inCycle = marchYear - cycles * 400
        // The leap days before it in its cycle: one for every fourth year but the hundredth.
        let before = inCycle * 365 + inCycle / 4 - inCycle / 100
        return cycles * daysPerCycle + before + marchMonthStart[month <= 2 ? month + 9 : month - 3] + day - 1 - marchZeroToEpoch
    }

    static func components(ordinal: Int) -> (year: Int, month: Int, day: Int) {
        let days = ordinal + marchZeroToEpoch
        let cycles = floorDivide(days, daysPerCycle)
        var rest = days - cycles * daysPerCycle
        let centuries = min(rest / daysPerCentury, 3) // 4 only on a cycle's last day, 29 February
        rest -= centuries * daysPerCentury
        let spans = rest / daysPerSpan
        rest -= spans * daysPerSpan
        let years = min(rest / 365, 3) // 4 only on a span's last day, 29 February
        rest -= years * 365
        // rest is the day of the March-based year; no month starts later than 31 days a month.
        var index = rest / 31
        while index < 11 && marchMonthStart[index + 1] <= rest { index += 1 }
        let month = index < 10 ? index + 3 : index - 9
        return (cycles * 400 + centuries * 100 + spans * 4 + years + (month <= 2 ? 1 : 0), month, rest - marchMonthStart[index] + 1)
    }
}
