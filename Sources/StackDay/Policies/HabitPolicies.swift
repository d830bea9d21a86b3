/// The three policies that judge one habit.
public struct HabitPolicies {
    public let schedule: any SchedulePolicy
    public let progress: any ProgressPolicy
    public let streak: any StreakPolicy

    public init(schedule: any SchedulePolicy, progress: any ProgressPolicy, streak: any StreakPolicy) {
        self.schedule = schedule
        self.progress = progress
        self.streak = streak
    }

    /// Every day due, progress toward the goal, the strict streak rule.
    public static var standard: HabitPolicies {
        HabitPolicies(schedule: EveryDaySchedule(), progress: GoalProgress(), streak: StrictStreak())
    }
}
