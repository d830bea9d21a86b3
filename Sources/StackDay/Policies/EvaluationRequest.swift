/// What a resolver that runs policies elsewhere needs to evaluate a habit's period in one piece of
/// work (`PolicyResolver.evaluate`): its history after the answers already known, and whether
/// the streak is wanted.
public struct EvaluationRequest: Sendable {
    public let habit: Habit
    /// Per-day totals and skips of the days after `known` (none before them are needed).
    public let dailyTotals: [(day: LocalDay, thousandths: Int64)]
    public let skips: [Skip]
    public let today: LocalDay
    public let period: LocalDayRange
    /// The answers kept for the period's first days, asked of no policy again.
    public let known: TimelineAnswers?
    /// Whether the streak over the elapsed days is wanted too.
    public let needsStreak: Bool

    public init(habit: Habit, dailyTotals: [(day: LocalDay, thousandths: Int64)], skips: [Skip], today: LocalDay, period: LocalDayRange,
                known: TimelineAnswers?, needsStreak: Bool) {
        self.habit = habit
        self.dailyTotals = dailyTotals
        self.skips = skips
        self.today = today
        self.period = period
        self.known = known
        self.needsStreak = needsStreak
    }
}
