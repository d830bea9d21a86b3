/// Computes a habit's streak by folding its streak policy over the elapsed timeline.
public struct HabitStreakCalculator {
    public let policy: any StreakPolicy

    public init(policy: any StreakPolicy) {
        self.policy = policy
    }

    public func calculate(_ timeline: HabitTimeline) throws -> HabitStreak {
        try policy.streak(over: timeline.elapsed, habit: timeline.habit)
    }
}
