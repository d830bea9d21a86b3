/// Reads the whole store as a `HabitArchive` (policy scripts and rule revisions included), in
/// one read transaction.
public struct ExportArchive {
    public let context: HabitContext

    public init(context: HabitContext) {
        self.context = context
    }

    /// The whole store in memory. `progress` is told the habits read so far and their number.
    public func callAsFunction(progress: ((Int, Int) -> Void)? = nil) throws -> HabitArchive {
        var archive = HabitArchive()
        try stream(progress: progress) { part in
            switch part {
            case .catalog(let habits, let scripts, let groups): (archive.habits, archive.scripts, archive.groups) = (habits, scripts, groups)
            case .completions(let completions): archive.completions += completions
            case .skips(let skips): archive.skips += skips
            }
        }
        return archive
    }

    /// The same a habit at a time, in one read transaction, so that an export of millions of
    /// records holds one habit's: the catalog, then every habit's completions, then every habit's
    /// skips (the order the export formats write). `progress` counts the habits whose
    /// completions were handed over.
    public func stream(progress: ((Int, Int) -> Void)? = nil, _ part: (ArchivePart) throws -> Void) throws {
        try context.store.read { tx in
            let habits = try tx.habits.all()
            try part(.catalog(habits: habits, scripts: try tx.scripts.all(), groups: try tx.groups.all()))
            for (index, habit) in habits.enumerated() {
                try part(.completions(try tx.completions.completions(habitID: habit.id)))
                progress?(index + 1, habits.count)
            }
            for habit in habits { try part(.skips(try tx.skips.skips(habitID: habit.id))) }
        }
    }
}
