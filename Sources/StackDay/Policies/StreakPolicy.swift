/// Decides how the streak moves from day to day.
public protocol StreakPolicy {
    /// The streak after walking `entries` in day order (the elapsed part of a habit's timeline).
    func streak(over entries: ArraySlice<HabitEntry>, habit: Habit) throws -> HabitStreak
}
