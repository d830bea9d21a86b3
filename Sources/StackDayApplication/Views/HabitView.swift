import StackDay

/// A habit as the writes answer it (`habit add`, `PATCH /v1/habits/{name}`, …) and `habit list`
/// lists it: `{"id", "name", "archivedOn", "rules", "startedOn", "unit", "revisions", "question",
/// "description"}`, `rules` the latest revision, the question and description null when none.
public struct HabitView: JSONView {
    public let habit: Habit
    /// The write appended a rule revision.
    public let revised: Bool
    /// The schedule as given, when it was words or a pasted rule: what it was read as is worth
    /// showing back.
    public let schedule: ScheduleInput?

    public init(_ habit: Habit, revised: Bool = false, schedule: ScheduleInput? = nil) {
        self.habit = habit
        self.revised = revised
        self.schedule = schedule
    }

    /// The schedule as the command line shows it after a write: its name, and with its parameters
    /// when it was read from words or a pasted rule (`weekly {"days":["mon","wed","fri"]}`).
    public var scheduleShown: String {
        guard let schedule, schedule.wasRead else { return habit.schedule.name }
        return habit.schedule.described()
    }

    public var json: JSONValue {
        var object = ViewJSON.habitFields(habit, rules: habit.latest)
        object["startedOn"] = .string(habit.startedOn.iso)
        object["unit"] = .string(habit.unit)
        object["revisions"] = ViewJSON.int(habit.revisions.count)
        object["question"] = ViewJSON.string(habit.question)
        object["description"] = ViewJSON.string(habit.details)
        return .object(object)
    }
}
