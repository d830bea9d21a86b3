import StackDay

/// A Lua policy serving the streak role: the whole fold is one protected call.
public struct LuaStreakPolicy: StreakPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func streak(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> HabitStreak {
        guard let outcomes = Outcomes(entries) else { return carrying ?? HabitStreak(current: 0, longest: 0) }
        return try binding.streak(first: outcomes.first, days: outcomes.days, status: outcomes.status, due: outcomes.due,
                                  totals: outcomes.totals, progress: outcomes.progress, carrying: carrying)
    }

    public func explain(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?, keepingFrom keep: Int) throws -> (steps: [StreakStep], final: HabitStreak) {
        guard let outcomes = Outcomes(entries) else { return ([], carrying ?? HabitStreak(current: 0, longest: 0)) }
        return try binding.explainStreak(first: outcomes.first, days: outcomes.days, status: outcomes.status, due: outcomes.due,
                                         totals: outcomes.totals, progress: outcomes.progress, carrying: carrying, keepingFrom: keep)
    }

    /// Entries as the C fold takes them: parallel arrays, and the days when they are not consecutive.
    struct Outcomes {
        let first: LocalDay
        /// Nil for consecutive days (a day-by-day habit); a quota habit's periods are each handed
        /// with their own last day.
        let days: [LocalDay]?
        var status: [UInt8] = [], due: [UInt8] = [], totals: [Double] = [], progress: [Double] = []

        init?(_ entries: ArraySlice<HabitEntry>) {
            guard let first = entries.first?.day else { return nil }
            self.first = first
            let consecutive = entries.last.map { first.days(to: $0.day) == entries.count - 1 } ?? true
            days = consecutive ? nil : entries.map(\.day)
            status.reserveCapacity(entries.count)
            due.reserveCapacity(entries.count)
            totals.reserveCapacity(entries.count)
            progress.reserveCapacity(entries.count)
            for entry in entries {
                status.append(StreakOutcome.Status(entry.state).code)
                due.append(entry.isDue ? 1 : 0)
                totals.append(entry.total)
                progress.append(entry.progress)
            }
        }
    }
}
