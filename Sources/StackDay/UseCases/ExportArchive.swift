/// Reads the whole store as a `HabitArchive` (policy scripts and rule revisions included), in
/// one read transaction.
public struct ExportArchive {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    public func callAsFunction() throws -> HabitArchive {
        try context.store.read { tx in
            var archive = HabitArchive(habits: try tx.habits.all(), scripts: try tx.scripts.all())
            for habit in archive.habits {
                archive.completions += try tx.completions.completions(habitID: habit.id)
                archive.skips += try tx.skips.skips(habitID: habit.id)
            }
            return archive
        }
    }
}
