/// Decides how the streak moves from day to day.
public protocol StreakPolicy {
    /// The streak after walking `entries` in day order (the elapsed part of a habit's timeline).
    ///
    /// With `carrying`, the rule starts from its initial state with `current` and `longest`
    /// taken from it: where a new revision takes over from an earlier rule.
    func streak(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> HabitStreak

    /// The same fold step by step, through the per-day rule (never a range form): one step for
    /// each entry from the `keep`-th on (the ones before run, unkept), and the streak after the
    /// last entry, the one `streak(over:)` gives.
    func explain(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?, keepingFrom keep: Int) throws -> (steps: [StreakStep], final: HabitStreak)
}

extension StreakPolicy {
    /// Steps through prefixes: the state is the streak itself (`{"current", "longest"}`). Right
    /// for a rule whose state is its streak; O(n²), for rules written in Swift.
    public func explain(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?, keepingFrom keep: Int) throws -> (steps: [StreakStep], final: HabitStreak) {
        var before = carrying ?? HabitStreak(current: 0, longest: 0)
        var steps: [StreakStep] = []
        for (offset, end) in entries.indices.enumerated() {
            let after = try streak(over: entries[entries.startIndex...end], habit: habit, carrying: carrying)
            if offset >= keep { steps.append(StreakStep(before: before.stateJSON, after: after.stateJSON, streak: after, why: nil)) }
            before = after
        }
        return (steps, before)
    }

    /// The streak from the rule's initial state.
    public func streak(over entries: ArraySlice<HabitEntry>, habit: Habit) throws -> HabitStreak {
        try streak(over: entries, habit: habit, carrying: nil)
    }
}
