import StackDay

/// Runs a streak rule over a history pattern, day by day.
public struct StreakSimulator {
    public struct Step: Hashable, Sendable {
        public let day: LocalDay
        public let outcome: StreakOutcome
        public let streak: HabitStreak
    }

    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    /// The streak after each day of `pattern`, the first day being `from`.
    public func simulate(pattern: String, from: LocalDay) throws -> [Step] {
        let outcomes = try HistoryPattern.outcomes(pattern)
        let streaks = try binding.streakSteps(first: from, outcomes: outcomes)
        return outcomes.indices.map { Step(day: from.adding(days: $0), outcome: outcomes[$0], streak: streaks[$0]) }
    }
}
