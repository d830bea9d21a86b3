import Foundation
import StackDay

/// Builders for the JSON the command line prints with `--json` and the server answers: one
/// shape for both.
public enum JSONOutput {
    public static func number(_ value: Double) -> JSONValue { .number((value * 1_000_000).rounded() / 1_000_000) }
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// A rule revision: `{"revision", "from", "goal", "schedule": {"name", "params", "sha256"}, …}`.
    public static func revision(_ revision: HabitRevision) -> JSONValue { ArchiveJSON.revisionValue(revision) }

    /// A record: `{"id", "habit", "day", "amount"}`.
    public static func completion(_ completion: Completion, habit: String) -> JSONValue {
        .object([
            "id": .string(completion.id.uuidString), "habit": .string(habit), "day": .string(completion.completedOn.iso),
            "amount": number(completion.amount),
        ])
    }

    /// A user without its token: `{"name", "timeZone", "dayStartsAt", "createdAt"}`.
    public static func user(_ user: User) -> JSONValue {
        .object([
            "name": .string(user.name), "timeZone": .string(user.timeZone), "dayStartsAt": .string(user.dayStart.description),
            "createdAt": .string(InstantText.format(user.createdAt)),
        ])
    }

    public static func habit(_ habit: Habit) -> JSONValue {
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

    /// `habit show --json`: the habit with its `statistics`, or with the policy's `error`.
    public static func habitShow(_ result: Result<HabitSummary, HabitFailure>) -> JSONValue {
        let habit: Habit
        let extra: (String, JSONValue)
        switch result {
        case .success(let value): (habit, extra) = (value.habit, ("statistics", summary(value)))
        case .failure(let value): (habit, extra) = (value.habit, ("error", .string(value.message)))
        }
        guard case .object(var object) = self.habit(habit) else { return .null }
        object[extra.0] = extra.1
        return .object(object)
    }

    /// A habit's figures: `{"name", "current", "longest", "completedDays", "eligibleDays", "rate", "score", "archived", "rules"}`.
    public static func summary(_ summary: HabitSummary) -> JSONValue {
        let stats = summary.statistics
        return .object([
            "name": .string(summary.habit.name),
            "current": int(stats.streak.current),
            "longest": int(stats.streak.longest),
            "completedDays": int(stats.completedDays),
            "eligibleDays": int(stats.eligibleDays),
            "rate": number(stats.completionRate),
            "score": number(stats.score),
            "archived": .bool(summary.habit.archivedOn != nil),
            "rules": revision(summary.revision),
        ])
    }

    /// A habit whose policy failed: its name and the policy's error instead of its figures.
    public static func failure(_ failure: HabitFailure) -> JSONValue {
        .object(["name": .string(failure.habit.name), "error": .string(failure.message)])
    }

    public static func summary(_ result: Result<HabitSummary, HabitFailure>) -> JSONValue {
        switch result {
        case .success(let value): summary(value)
        case .failure(let value): failure(value)
        }
    }

    /// `stats --json`: `{"habits": [summary…]}`.
    public static func stats(_ results: [Result<HabitSummary, HabitFailure>]) -> JSONValue {
        .object(["habits": .array(results.map(summary))])
    }

    /// The habits `today` shows: active ones with an entry today, and the ones that failed.
    public static func todayResults(_ results: [Result<HabitSummary, HabitFailure>]) -> [Result<HabitSummary, HabitFailure>] {
        results.filter { (try? $0.get().today) != nil || $0.failure != nil }
    }

    /// `today --json`: `{"day", "habits": [{"name", "due", "total", "goal", "unit", "progress", "state", "streak", "rules"}…]}`.
    public static func today(_ day: LocalDay, _ results: [Result<HabitSummary, HabitFailure>]) -> JSONValue {
        .object([
            "day": .string(day.iso),
            "habits": .array(results.map { result in
                guard case .success(let summary) = result else { return self.summary(result) }
                let entry = summary.today
                return .object([
                    "name": .string(summary.habit.name),
                    "due": .bool(entry?.isDue ?? false),
                    "total": number(entry?.total ?? 0),
                    "goal": number(summary.revision.goal),
                    "unit": .string(summary.habit.unit),
                    "progress": number(entry?.progress ?? 0),
                    "state": .string(entry?.state.rawValue ?? "notDue"),
                    "streak": int(summary.statistics.streak.current),
                    "rules": revision(summary.revision),
                ])
            }),
        ])
    }

    /// `calendar NAME --json`: `{"habit", "days": [{"day", "progress", "state", "total"}…]}` over `range`.
    public static func calendar(_ timeline: HabitTimeline, range: LocalDayRange) -> JSONValue {
        .object([
            "habit": .string(timeline.habit.name),
            "days": .array(range.compactMap { day in
                timeline.entry(on: day).map { entry in
                    .object(["day": .string(day.iso), "progress": number(entry.progress), "state": .string(entry.state.rawValue),
                             "total": number(entry.total)])
                }
            }),
        ])
    }

    /// A calendar whose policy failed: `{"habit", "error"}`.
    public static func calendarFailure(_ failure: HabitFailure) -> JSONValue {
        .object(["habit": .string(failure.habit.name), "error": .string(failure.message)])
    }

    /// An installed script: `{"name", "sha256", "installedAt"}`.
    public static func installed(_ script: PolicyScript) -> JSONValue {
        .object(["name": .string(script.name), "sha256": .string(script.sha256), "installedAt": .string(InstantText.format(script.installedAt))])
    }

    /// A refused script: `{"policy", "failures": […]}`.
    public static func refusal(_ refusal: PolicyRefusal) -> JSONValue {
        .object(["policy": .string(refusal.policy), "failures": .array(refusal.failures.map(JSONValue.string))])
    }

    /// `policy history --json`: `{"habit", "revisions": […]}`.
    public static func history(_ habit: Habit) -> JSONValue {
        .object(["habit": .string(habit.name), "revisions": .array(habit.revisions.map(revision))])
    }

    /// `policy rollback --json`: `{"habit", "rules"}`, the revision just appended.
    public static func rules(_ habit: Habit) -> JSONValue {
        .object(["habit": .string(habit.name), "rules": revision(habit.latest)])
    }

    /// `policy simulate --habit --json`: `{"habit", "role", "current", "proposed"}`.
    public static func simulation(_ simulation: PolicySimulation, role: PolicyRole) -> JSONValue {
        .object([
            "habit": .string(simulation.current.habit.name), "role": .string(role.rawValue),
            "current": summary(simulation.current), "proposed": summary(simulation.proposed),
        ])
    }
}
