/// Decides how the streak moves from day to day.
public protocol StreakPolicy {
    /// The streak after walking `entries` in day order (the elapsed part of a habit's timeline).
    ///
    /// With `carrying`, the rule starts from its initial state with `current` and `longest`
    /// taken from it: where a new revision takes over from an earlier rule.
    func streak(over entries: ArraySlice<HabitEntry>, habit: Habit, carrying: HabitStreak?) throws -> HabitStreak
}

extension StreakPolicy {
    /// The streak from the rule's initial state.
    public func streak(over entries: ArraySlice<HabitEntry>, habit: Habit) throws -> HabitStreak {
        try streak(over: entries, habit: habit, carrying: nil)
    }
}
