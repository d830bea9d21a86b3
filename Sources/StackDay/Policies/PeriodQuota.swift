/// A schedule asked for as a count per period ("3 times a week") rather than on set days.
///
/// For such a habit any day may count; a period is met when it holds `times` completed days.
/// Streaks and completion rates then count periods, not days.
public struct PeriodQuota: Hashable, Sendable {
    public enum Period: Hashable, Sendable {
        /// Seven days from `PeriodQuota.weekStart`: Monday to Sunday unless the schedule says Sunday.
        case week
        /// A calendar month.
        case month
        /// The `days` days ending on each day (a rolling window), judged day by day.
        case rolling(days: Int)
    }

    /// Completed days a period needs (at least 1).
    public let times: Int
    public let period: Period
    /// The day a `.week` period begins on (Monday for any other period).
    public let weekStart: WeekStart

    public init(times: Int, period: Period, weekStart: WeekStart = .monday) {
        self.times = max(1, times)
        self.period = period
        self.weekStart = period == .week ? weekStart : .monday
    }
}
