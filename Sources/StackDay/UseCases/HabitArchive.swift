/// Everything a store holds, in a stable order: habits in creation order, then each habit's
/// completions and skips in day order. What export writes and import reads.
public struct HabitArchive: Sendable {
    public var habits: [Habit]
    public var completions: [Completion]
    public var skips: [Skip]

    public init(habits: [Habit] = [], completions: [Completion] = [], skips: [Skip] = []) {
        self.habits = habits
        self.completions = completions
        self.skips = skips
    }
}
