import StackDay

/// A Lua policy serving the streak role: the whole fold is one protected call.
public struct LuaStreakPolicy: StreakPolicy {
    public let binding: PolicyBinding

    public init(binding: PolicyBinding) {
        self.binding = binding
    }

    public func streak(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> HabitStreak {
        guard let first = entries.first?.day else { return carrying ?? HabitStreak(current: 0, longest: 0) }
        var status: [UInt8] = [], due: [UInt8] = [], totals: [Double] = [], progress: [Double] = []
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
        // Consecutive days (a day-by-day habit) need no list; a quota habit's periods are each
        // handed with their own last day.
        let consecutive = entries.last.map { first.days(to: $0.day) == entries.count - 1 } ?? true
        return try binding.streak(first: first, days: consecutive ? nil : entries.map(\.day),
                                  status: status, due: due, totals: totals, progress: progress, carrying: carrying)
    }
}
