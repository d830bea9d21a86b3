/// Computes a habit's streak by folding each revision's streak policy over its part of the
/// elapsed timeline (over its periods, under a quota: the streak then counts periods).
///
/// Where a revision takes over, its rule starts from its initial state with the current and
/// longest streak carried over from the rule before.
public struct HabitStreakCalculator {
    public let policies: RevisionPolicies

    public init(policies: RevisionPolicies) {
        self.policies = policies
    }

    /// One streak rule for every revision.
    public init(policy: any StreakPolicy) {
        self.init(policies: RevisionPolicies(uniform: HabitPolicies(schedule: EveryDaySchedule(), progress: GoalProgress(), streak: policy)))
    }

    public func calculate(_ timeline: HabitTimeline) throws -> HabitStreak {
        var streak: HabitStreak? = nil
        for segment in timeline.segments {
            let outcomes = timeline.outcomes(of: segment)
            guard !outcomes.isEmpty else { continue }
            streak = try policies.policies(for: segment.revision).streak.streak(over: outcomes, habit: timeline.habit, carrying: streak)
        }
        return streak ?? HabitStreak(current: 0, longest: 0)
    }
}
