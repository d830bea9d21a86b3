/// A part of an export as `ExportArchive.stream` hands it over: the catalog first, then each
/// habit's completions, then each habit's skips.
public enum ArchivePart: Sendable {
    case catalog(habits: [Habit], scripts: [PolicyScript], groups: [HabitGroup])
    case completions([Completion])
    case skips([Skip])
}
