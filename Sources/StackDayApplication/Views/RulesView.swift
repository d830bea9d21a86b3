import StackDay

/// `policy rollback`, `POST /v1/habits/{name}/rollback`: `{"habit", "rules", "takesBack",
/// "written"}`: the revision in force at the end, the first revision taken back, and the
/// revisions the rollback wrote.
public struct RulesView: JSONView {
    public let habit: Habit
    /// How many revisions the habit had before the rollback.
    public let before: Int

    /// The revisions the rollback wrote.
    public var written: ArraySlice<HabitRevision> { habit.revisions[before...] }

    /// The first revision taken back.
    public var takesBack: Int { habit.latest.takesBack ?? habit.latest.number }

    public var json: JSONValue {
        .object(["habit": .string(habit.name), "rules": ViewJSON.revision(habit.latest), "takesBack": ViewJSON.int(takesBack),
                 "written": .array(written.map(ViewJSON.revision))])
    }
}
