/// The current and the longest streak of a habit, as its streak policy counts them.
public struct HabitStreak: Hashable, Sendable {
    public let current: Int
    public let longest: Int

    public init(current: Int, longest: Int) {
        self.current = current
        self.longest = longest
    }
}

extension HabitStreak {
    /// The streak as a rule's state: `{"current", "longest"}`.
    public var stateJSON: JSONValue { .object(["current": .number(Double(current)), "longest": .number(Double(longest))]) }
}
