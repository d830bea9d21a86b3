/// Reads the whole store as a `HabitArchive` (policy scripts and rule revisions included), in
/// one read transaction.
public struct ExportArchive {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// `progress` is told the habits read so far and their number.
    public func callAsFunction(progress: ((Int, Int) -> Void)? = nil) throws -> HabitArchive {
        try context.store.read { tx in
            var archive = HabitArchive(habits: try tx.habits.all(), scripts: try tx.scripts.all())
            for (index, habit) in archive.habits.enumerated() {
                archive.completions += try tx.completions.completions(habitID: habit.id)
                archive.skips += try tx.skips.skips(habitID: habit.id)
                progress?(index + 1, archive.habits.count)
            }
            return archive
        }
    }
}
