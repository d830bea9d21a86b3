/// The default streak rule: a due day reached adds one, a due day missed resets;
/// today still pending, days not due and skipped days leave the streak as it is.
public struct StrictStreak: StreakPolicy {
    public init() {}

    public func explain(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?, keepingFrom keep: Int) throws -> (steps: [StreakStep], final: HabitStreak) {
        var before = carrying ?? HabitStreak(current: 0, longest: 0)
        var steps: [StreakStep] = []
        for (offset, index) in entries.indices.enumerated() {
            let after = try streak(over: entries[index...index], habit: habit, carrying: before)
            if offset >= keep { steps.append(StreakStep(before: before.stateJSON, after: after.stateJSON, streak: after, why: nil)) }
            before = after
        }
        return (steps, before)
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
