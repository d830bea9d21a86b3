/// What an archive holds besides its records: read first, so that an import knows every habit
/// and script before the first record, and how many records there are (for its progress line).
public struct ArchiveCatalog: Sendable {
    public var habits: [Habit]
    public var scripts: [PolicyScript]
    /// Groups of the habits, written after them.
    public var groups: [HabitGroup]
    /// Completions and skips that follow.
    public var records: Int
    /// See `HabitArchive.unplacedNotes`.
    public var unplacedNotes: Int

    public init(habits: [Habit] = [], scripts: [PolicyScript] = [], groups: [HabitGroup] = [], records: Int = 0, unplacedNotes: Int = 0) {
        self.habits = habits
        self.groups = groups
        self.scripts = scripts
        self.records = records
        self.unplacedNotes = unplacedNotes
    }
}
