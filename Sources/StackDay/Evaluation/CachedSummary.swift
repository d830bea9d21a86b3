/// A habit's figures as of one day, kept so that reading them again that day builds no timeline:
/// the streak, and (when a summary was asked for) the statistics and that day's entry.
/// Any write to the habit clears it.
public struct CachedSummary: Hashable, Sendable {
    public let asOf: LocalDay
    public let streak: HabitStreak
    /// Nil when only the streak was computed (a weekly report).
    public let statistics: HabitStatistics?
    /// The entry for `asOf`, nil when that day is outside the tracking period.
    public let today: HabitEntry?
    /// The quota in force on `asOf`, and its period holding that day (`HabitSummary.period`).
    public let quota: PeriodQuota?
    public let period: HabitPeriod?

    public init(asOf: LocalDay, streak: HabitStreak, statistics: HabitStatistics?, today: HabitEntry?, quota: PeriodQuota? = nil, period: HabitPeriod? = nil) {
        self.asOf = asOf
        self.streak = streak
        self.statistics = statistics
        self.today = today
        self.quota = quota
        self.period = period
    }
}
