/// The default streak rule: a due day reached adds one, a due day missed resets;
/// today still pending, days not due and skipped days leave the streak as it is.
public struct StrictStreak: StreakPolicy {
    public init() {}

    public func explain(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> [StreakStep] {
        var before = carrying ?? HabitStreak(current: 0, longest: 0)
        return try entries.indices.map { index in
            let after = try streak(over: entries[index...index], habit: habit, carrying: before)
            defer { before = after }
            return StreakStep(before: before.stateJSON, after: after.stateJSON, streak: after, why: nil)
        }
    }

    public func streak(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> HabitStreak {
        var current = carrying?.current ?? 0
        var longest = carrying?.longest ?? 0
        for entry in entries {
            switch entry.state {
            case .completed:
                current += 1
                longest = max(longest, current)
            case .missed:
                current = 0
            case .pending, .notDue, .skipped, .upcoming:
                break
            }
        }
        return HabitStreak(current: current, longest: longest)
    }
}
