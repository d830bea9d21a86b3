/// How far a read may reach: the days a calendar, a report or a timeline is asked for. Without
/// it one request could ask for every day up to 9999-12-31 (a 50 MB answer, and a timeline of
/// three million days to compute); with it every caller (command line, API, pages) refuses the
/// same requests the same way.
public enum ReadWindow {
    /// The most days after today a read may name: a year, so next year's plans still show.
    public static let daysAhead = 366
    /// The most days one calendar may list: ten years.
    public static let maximumSpan = 3_660

    /// The days an explanation shows: `from`…`to`, by default the 8 weeks up to `to` (itself by
    /// default today). Throws `UseCaseError.invalidRange` and what `check` throws.
    public static func explained(from: LocalDay?, to: LocalDay?, today: LocalDay) throws -> LocalDayRange {
        let last = to ?? today
        let first = from ?? last.adding(days: -55)
        guard first <= last else { throw UseCaseError.invalidRange(from: first, to: last) }
        let range = LocalDayRange(first, last)
        try check(range)
        try check(last, today: today)
        return range
    }

    /// Throws `UseCaseError.dayTooFarAhead` for a day more than `daysAhead` after today.
    public static func check(_ day: LocalDay, today: LocalDay) throws {
        let limit = today.adding(days: daysAhead)
        if day > limit { throw UseCaseError.dayTooFarAhead(day: day, limit: limit) }
    }

    /// Throws `UseCaseError.spanTooLong` for a range of more than `maximumSpan` days.
    public static func check(_ range: LocalDayRange) throws {
        if range.count > maximumSpan { throw UseCaseError.spanTooLong(days: range.count, limit: maximumSpan) }
    }
}
