import StackDay
import StackDayExchange

/// Builders for the JSON the command line prints with `--json`.
enum JSONOutput {
    static func number(_ value: Double) -> JSONValue { .number((value * 1_000_000).rounded() / 1_000_000) }
    static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// A rule revision: `{"revision", "from", "goal", "schedule": {"name", "params", "sha256"}, …}`.
    static func revision(_ revision: HabitRevision) -> JSONValue { ArchiveJSON.revisionValue(revision) }

    /// A user without its token: `{"name", "timeZone", "dayStartsAt", "createdAt"}`.
    static func user(_ user: User) -> JSONValue {
        .object([
            "name": .string(user.name), "timeZone": .string(user.timeZone), "dayStartsAt": .string(user.dayStart.description),
            "createdAt": .string(InstantText.format(user.createdAt)),
        ])
    }

    static func habit(_ habit: Habit) -> JSONValue {
        .object([
            "revision": .number(Double(habit.latest.number)),
            "id": .string(habit.id.uuidString),
            "name": .string(habit.name),
            "startedOn": .string(habit.startedOn.iso),
            "archivedOn": string(habit.archivedOn?.iso),
            "goal": number(habit.goal),
            "unit": .string(habit.unit),
            "schedule": habit.schedule.jsonValue,
            "progress": habit.progress.jsonValue,
            "streak": habit.streak.jsonValue,
        ])
    }
}
