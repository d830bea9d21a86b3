/// Computes a habit's streak by folding its streak policy over the elapsed timeline
/// (over its periods, for a quota habit: the streak then counts periods).
public struct HabitStreakCalculator {
    public let policy: any StreakPolicy

    public init(policy: any StreakPolicy) {
        self.policy = policy
    }

    public func calculate(_ timeline: HabitTimeline) throws -> HabitStreak {
        try policy.streak(over: timeline.outcomes, habit: timeline.habit)
    }
}
