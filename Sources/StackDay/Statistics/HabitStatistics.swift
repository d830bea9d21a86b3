/// A summary of a habit's tracking period up to today.
///
/// For a quota habit ("3 times a week") the counts are periods, not days.
public struct HabitStatistics: Hashable, Sendable {
    /// Due days (or periods) reached.
    public let completedDays: Int
    /// Due days (or periods) that were not skipped and are over, plus the current one once reached.
    public let eligibleDays: Int
    /// `completedDays / eligibleDays`, 0 when nothing was eligible yet.
    public let completionRate: Double
    public let streak: HabitStreak
    /// Habit strength 0…1 (Loop Habit Tracker's exponential score).
    public let score: Double

    public init(completedDays: Int, eligibleDays: Int, completionRate: Double, streak: HabitStreak, score: Double) {
        self.completedDays = completedDays
        self.eligibleDays = eligibleDays
        self.completionRate = completionRate
        self.streak = streak
        self.score = score
    }
}
