/// A summary of a habit's tracking period up to today.
public struct HabitStatistics: Hashable, Sendable {
    /// Due days reached.
    public let completedDays: Int
    /// Due days that were not skipped, up to yesterday, plus today once it is reached.
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
