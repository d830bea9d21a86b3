import StackDay

/// A habit as the writes answer it (`habit add`, `PATCH /v1/habits/{name}`, …) and `habit list`
/// lists it: `{"id", "name", "archivedOn", "rules", "startedOn", "unit", "revisions"}`, `rules`
/// the latest revision.
public struct HabitView: JSONView {
    public let habit: Habit
    /// The write appended a rule revision.
    public let revised: Bool

    public init(_ habit: Habit, revised: Bool = false) {
        self.habit = habit
        self.revised = revised
    }

    public var json: JSONValue {
        var object = ViewJSON.habitFields(habit, rules: habit.latest)
        object["startedOn"] = .string(habit.startedOn.iso)
        object["unit"] = .string(habit.unit)
        object["revisions"] = ViewJSON.int(habit.revisions.count)
        return .object(object)
    }
}
