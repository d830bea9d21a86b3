/// Reads the whole store as a `HabitArchive`, in one read transaction.
public struct ExportArchive {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    public func callAsFunction() throws -> HabitArchive {
        try context.store.read {
            var archive = HabitArchive(habits: try context.store.habits.all())
            for habit in archive.habits {
                archive.completions += try context.store.completions.completions(habitID: habit.id)
                archive.skips += try context.store.skips.skips(habitID: habit.id)
            }
            return archive
        }
    }
}
