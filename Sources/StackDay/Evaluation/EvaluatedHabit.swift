/// A habit's timeline with what else its figures need: its policies (resolved on first use)
/// and its streak, from the cache when the cache holds it for today.
public final class EvaluatedHabit {
    public let timeline: HabitTimeline
    public let policies: RevisionPolicies
    private var computedStreak: HabitStreak?

    init(timeline: HabitTimeline, policies: RevisionPolicies, streak: HabitStreak?) {
        self.timeline = timeline
        self.policies = policies
        computedStreak = streak
    }

    /// The streak as of the timeline's today; folded by the streak policies once, then kept.
    public func streak() throws -> HabitStreak {
        if let computedStreak { return computedStreak }
        let streak = try HabitStreakCalculator(policies: policies).calculate(timeline)
        computedStreak = streak
        return streak
    }

    /// The streak if it is known without running a policy.
    var knownStreak: HabitStreak? { computedStreak }

    /// Statistics computed from this evaluation, kept with the cached answers.
    var keptStatistics: HabitStatistics?

    /// Hands the statistics computed from this evaluation to the cache.
    func keep(_ statistics: HabitStatistics) {
        keptStatistics = statistics
    }
}
