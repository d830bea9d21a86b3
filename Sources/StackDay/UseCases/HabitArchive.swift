/// Everything a store holds, in a stable order: habits in creation order (each with its rule
/// revisions), then each habit's completions and skips in day order, the policy scripts oldest
/// first, and the groups of habits in the order they were made. What export writes and import
/// reads.
public struct HabitArchive: Sendable {
    public var habits: [Habit]
    public var completions: [Completion]
    public var skips: [Skip]
    public var scripts: [PolicyScript]
    public var groups: [HabitGroup]
    /// Notes a source held on days it has no record for (Loop writes notes on any day): nothing
    /// to keep them with, so an import says how many it left out.
    public var unplacedNotes = 0

    public init(habits: [Habit] = [], completions: [Completion] = [], skips: [Skip] = [], scripts: [PolicyScript] = [], groups: [HabitGroup] = []) {
        self.habits = habits
        self.groups = groups
        self.completions = completions
        self.skips = skips
        self.scripts = scripts
    }
}
