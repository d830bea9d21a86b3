/// How a habit's streak came to be what it is: every step of the fold the engine runs, over the
/// days (or, under a quota, the periods) asked for, and the streak `stats` prints.
public struct HabitExplanation: Sendable {
    /// One outcome the streak rule was given: a day, or a quota period (`days` its first … last day).
    public struct Step: Sendable {
        public let days: LocalDayRange
        public let revision: HabitRevision
        /// The day's (or period's) outcome as the rule saw it: due, total, progress, state.
        public let entry: HabitEntry
        /// The day's goal, or the period's quota (scaled when the period is cut short).
        public let goal: Double
        public let step: StreakStep
        /// Under a quota: the period's completed days; nil for a day.
        public let period: HabitPeriod?
    }

    public let habit: Habit
    public let range: LocalDayRange
    /// The streak after the whole elapsed history: what `stats` prints.
    public let streak: HabitStreak
    public let countsIn: CountUnit
    public let steps: [Step]
}
