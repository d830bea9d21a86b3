/// A habit with its statistics as of today.
public struct HabitSummary: Sendable {
    public let habit: Habit
    public let statistics: HabitStatistics
    /// Today's entry, nil when today is outside the tracking period.
    public let today: HabitEntry?
    /// The rule revision in force today (on the last tracked day, for an archived habit).
    public let revision: HabitRevision
    /// The quota in force today, nil for a day-by-day schedule.
    public let quota: PeriodQuota?
    /// The quota period holding today (the window ending today, for a rolling quota), nil when
    /// today is outside the tracking period or the habit has no quota.
    public let period: HabitPeriod?

    public init(
        habit: Habit, statistics: HabitStatistics, today: HabitEntry?, revision: HabitRevision? = nil, quota: PeriodQuota? = nil,
        period: HabitPeriod? = nil
    ) {
        self.habit = habit
        self.statistics = statistics
        self.today = today
        self.revision = revision ?? habit.latest
        self.quota = quota
        self.period = period
    }

    /// What the statistics and the streak count.
    public var countsIn: CountUnit { CountUnit(quota) }
}

extension HabitSummary {
    /// The summary from cached figures.
    init(habit: Habit, statistics: HabitStatistics, today: HabitEntry?, asOf day: LocalDay, quota: PeriodQuota?, period: HabitPeriod?) {
        self.init(habit: habit, statistics: statistics, today: today, revision: habit.revision(on: habit.archivedOn.map { min($0, day) } ?? day),
                  quota: quota, period: period)
    }

    /// The summary of an evaluated habit.
    init(habit: Habit, evaluated: EvaluatedHabit) throws {
        let timeline = evaluated.timeline
        let calculator = HabitStatisticsCalculator(streakCalculator: HabitStreakCalculator(policies: evaluated.policies))
        let statistics = try calculator.calculate(timeline, streak: try evaluated.streak())
        evaluated.keep(statistics)
        self.init(habit: habit, statistics: statistics, today: timeline.entry(on: timeline.today), asOf: timeline.today,
                  quota: timeline.quota, period: timeline.openPeriod)
    }
}
