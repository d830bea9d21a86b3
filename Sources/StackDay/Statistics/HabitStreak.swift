/// The current and the longest streak of a habit, as its streak policy counts them.
public struct HabitStreak: Hashable, Sendable {
    public let current: Int
    public let longest: Int

    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}
