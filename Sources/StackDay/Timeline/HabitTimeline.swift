/// One habit, day by day over its tracking period: the one source every derived value reads.
public struct HabitTimeline: Sendable {
    public let habit: Habit
    public let today: LocalDay
    /// `startedOn` … the earlier of `archivedOn` and the last day asked for (at least today).
    public let period: LocalDayRange
    /// One entry per day of `period`, in day order.
    public let entries: [HabitEntry]
    /// The quota a period schedule asks for; nil for a day-by-day schedule.
    public let quota: PeriodQuota?
    /// For a quota habit, its periods up to today in order; empty otherwise.
    public let periods: [HabitPeriod]

    public init(habit: Habit, today: LocalDay, period: LocalDayRange, entries: [HabitEntry], quota: PeriodQuota? = nil, periods: [HabitPeriod] = []) {
        self.habit = habit
        self.today = today
        self.period = period
        self.entries = entries
        self.quota = quota
        self.periods = periods
    }

    /// What streaks and rates count: the periods of a quota habit, else the elapsed days.
    public var outcomes: ArraySlice<HabitEntry> {
        quota == nil ? elapsed : ArraySlice(periods.map(\.entry))
    }

    /// The entry for `day`, or nil outside the tracking period.
    public func entry(on day: LocalDay) -> HabitEntry? {
        guard period.contains(day) else { return nil }
        return entries[period.first.days(to: day)]
    }

    /// The entries up to and including today.
    public var elapsed: ArraySlice<HabitEntry> {
        guard !period.isEmpty, today >= period.first else { return entries[0..<0] }
        let end = min(entries.count, period.first.days(to: today) + 1)
        return entries[0..<end]
    }

    /// The entries whose day falls in `days`.
    public func entries(in days: LocalDayRange) -> ArraySlice<HabitEntry> {
        let overlap = days.clamped(to: period)
        guard !overlap.isEmpty else { return entries[0..<0] }
        let start = period.first.days(to: overlap.first)
        return entries[start..<(start + overlap.count)]
    }
}
