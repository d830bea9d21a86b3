/// The default progress: `min(total / goal, 1)`.
public struct GoalProgress: ProgressPolicy {
    public init() {}

    public func progress(totals: [Double], days: LocalDayRange, habit: Habit) throws -> [Double] {
        totals.map { min($0 / habit.goal, 1) }
    }
}
