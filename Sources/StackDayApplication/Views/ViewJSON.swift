import StackDay
import StackDayExchange

/// The pieces every view's JSON is made of, so that a number, a habit or a rule revision is
/// written one way everywhere (docs/json.md).
public enum ViewJSON {
    /// The state a view shows for a day past its limit, in place of `pending` or `missed`.
    public static let over = "over"

    /// A day's state as views show it: its `EntryState`, or `over` (`DayTarget.wentOver`).
    public static func state(_ entry: HabitEntry, target: DayTarget) -> String {
        target.wentOver(entry) ? over : entry.state.rawValue
    }

    /// A number rounded to 6 decimals (amounts are kept in thousandths; rates and scores need no more).
    public static func number(_ value: Double) -> JSONValue { .number((value * 1_000_000).rounded() / 1_000_000) }
    public static func int(_ value: Int) -> JSONValue { .number(Double(value)) }
    public static func string(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// A rule revision: `{"revision", "from", "goal", "schedule": {"name", "params", "sha256"}, …}`.
    public static func revision(_ revision: HabitRevision) -> JSONValue { ArchiveJSON.revisionValue(revision) }

    /// Trace lines: `[{"file", "line", "day", "text"}]`, `day` null for a call about no day.
    public static func trace(_ lines: [PolicyTraceLine]) -> JSONValue {
        .array(lines.map { .object(["file": .string($0.file), "line": int($0.line), "day": string($0.day?.iso), "text": .string($0.text)]) })
    }

    /// The fields every row describing a habit starts with: `id`, `name`, `archivedOn`, `rules`
    /// (the revision in force today, where a row has figures; else the latest), and how the habit
    /// is shown: `position` in the list, `colorTag` (null for none) and `step` (what `+` records).
    public static func habitFields(_ habit: Habit, rules: HabitRevision) -> [String: JSONValue] {
        [
            "id": .string(habit.id.uuidString), "name": .string(habit.name), "archivedOn": string(habit.archivedOn?.iso),
            "rules": revision(rules), "position": int(habit.position), "colorTag": string(habit.colorTag?.rawValue),
            "step": number(habit.stepAmount),
        ]
    }

    /// A habit's figures: `countsIn`, `current`, `longest`, `completedDays`, `eligibleDays`,
    /// `rate`, `score` and the open quota `period` (null without one).
    public static func figures(_ summary: HabitSummary) -> [String: JSONValue] {
        let stats = summary.statistics
        return [
            "countsIn": .string(summary.countsIn.rawValue),
            "current": int(stats.streak.current), "longest": int(stats.streak.longest),
            "completedDays": int(stats.completedDays), "eligibleDays": int(stats.eligibleDays),
            "rate": number(stats.completionRate), "score": number(stats.score),
            "period": period(summary),
        ]
    }

    /// `{"per": "week"|"month"|N, "first", "last", "done", "times"}` for the quota period holding
    /// today (`last` the day it closes, past today while it is open); null for a day-by-day
    /// habit, or outside the tracking period.
    public static func period(_ summary: HabitSummary) -> JSONValue {
        guard let quota = summary.quota, let period = summary.period else { return .null }
        let per: JSONValue
        switch quota.period {
        case .week: per = .string("week")
        case .month: per = .string("month")
        case .rolling(let days): per = int(days)
        }
        return .object([
            "per": per, "first": .string(period.days.first.iso), "last": .string(period.closes(under: quota, archivedOn: summary.habit.archivedOn).iso),
            "done": int(period.count), "times": int(period.times),
        ])
    }

    /// A habit's row with its figures, or with its policy's `error` in their place.
    public static func summaryRow(_ result: Result<HabitSummary, HabitFailure>) -> JSONValue {
        switch result {
        case .success(let summary):
            return .object(habitFields(summary.habit, rules: summary.revision).merging(figures(summary)) { $1 })
        case .failure(let failure):
            var object = habitFields(failure.habit, rules: failure.habit.latest)
            object["error"] = .string(failure.message)
            return .object(object)
        }
    }
}
