import StackDay

/// A Lua policy serving the schedule role: one protected call per range of days.
public struct LuaSchedulePolicy: SchedulePolicy, RemindingPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func dueDays(_ days: LocalDayRange, habit: Habit) throws -> [Bool] {
        try binding.dueDays(days)
    }

    public func quota(for habit: Habit) throws -> PeriodQuota? {
        try binding.quota()
    }

    public func remind(day: LocalDay, progress: Double) throws -> Bool? {
        try binding.remind(day: day, progress: progress)
    }
}
