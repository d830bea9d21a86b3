/// Decides which days a habit asks for.
public protocol SchedulePolicy {
    /// Whether each day of `days` is due, in day order (`days.count` answers).
    /// Throws when the policy fails or answers something other than a boolean.
    func dueDays(_ days: LocalDayRange, habit: Habit) throws -> [Bool]

    /// A count per period that replaces set days ("3 times a week"); nil for a day-by-day schedule.
    func quota(for habit: Habit) throws -> PeriodQuota?
}

extension SchedulePolicy {
    /// The quota the schedule asks for instead of set days, if any (default: none).
    public func quota(for habit: Habit) throws -> PeriodQuota? { nil }
}
