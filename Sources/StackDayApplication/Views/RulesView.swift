import StackDay

/// `policy rollback`, `POST /v1/habits/{name}/rollback`: `{"habit", "rules"}`, the revision just
/// appended, and the revision whose rules it brings back.
public struct RulesView: JSONView {
    public let habit: Habit
    /// The revision whose rules came back.
    public let restored: Int

    public var json: JSONValue { .object(["habit": .string(habit.name), "rules": ViewJSON.revision(habit.latest)]) }
}
