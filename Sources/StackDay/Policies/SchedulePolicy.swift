/// Decides which days a habit asks for.
public protocol SchedulePolicy {
    /// Whether each day of `days` is due, in day order (`days.count` answers).
    /// Throws when the policy fails or answers something other than a boolean.
    func dueDays(_ days: LocalDayRange, habit: Habit) throws -> [Bool]
}
