/// A habit with its statistics as of today.
public struct HabitSummary: Sendable {
    public let habit: Habit
    public let statistics: HabitStatistics
    /// Today's entry, nil when today is outside the tracking period.
    public let today: HabitEntry?

    public init(habit: Habit, statistics: HabitStatistics, today: HabitEntry?) {
        self.habit = habit
        self.statistics = statistics
        self.today = today
    }
}
