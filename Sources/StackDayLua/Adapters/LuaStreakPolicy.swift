import StackDay

/// A Lua policy serving the streak role: the whole fold is one protected call.
public struct LuaStreakPolicy: StreakPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func streak(over entries: ArraySlice<HabitEntry>, habit: Habit) throws -> HabitStreak {
        guard let first = entries.first?.day else { return HabitStreak(current: 0, longest: 0) }
        let outcomes = entries.map {
            StreakOutcome(status: StreakOutcome.Status($0.state), isDue: $0.isDue, total: $0.total, progress: $0.progress)
        }
        return try binding.streak(first: first, outcomes: outcomes)
    }
}
