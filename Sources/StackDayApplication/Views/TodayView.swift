import StackDay

/// `today`, `GET /v1/today`: the active habits with an entry today, and those whose policy failed.
///
/// `{"day", "habits": [{…habit fields, …figures, "due", "total", "goal", "limit", "unit", "progress", "state"}…], "groups": [GroupDayView…]}`:
/// `limit` the at-most limit (null for a goal), `state` an `EntryState` or `over` for a day past
/// its limit.
public struct TodayView: JSONView {
    public let day: LocalDay
    public let rows: [Result<HabitSummary, HabitFailure>]
    /// The groups begun by today, in the order they were made (`GroupDayView`).
    public let groups: [Result<GroupSummary, GroupFailure>]

    /// The rows of `results` today shows, and the groups begun by today.
    public init(day: LocalDay, results: [Result<HabitSummary, HabitFailure>], groups: [Result<GroupSummary, GroupFailure>] = []) {
        self.day = day
        rows = results.filter { (try? $0.get().today) != nil || $0.failure != nil }
        self.groups = groups.filter { result in
            guard case .success(let summary) = result else { return true }
            return summary.today != nil
        }
    }

    public var failures: [HabitFailure] { rows.failures() }

    /// The habits still open today: due and not yet met (a quota habit whose period still needs a
    /// day), a day gone over its limit not among them (nothing is left to do); failures stay, so
    /// that a failed habit is never taken for a done one.
    public var open: TodayView {
        TodayView(day: day, rows: rows.filter { result in
            guard case .success(let summary) = result else { return true }
            guard let entry = summary.today else { return false }
            return entry.state == .pending && !DayTarget(summary.revision).wentOver(entry)
        }, groups: groups.filter { result in
            guard case .success(let summary) = result else { return true }
            return summary.today?.state == .pending
        })
    }

    init(day: LocalDay, rows: [Result<HabitSummary, HabitFailure>], groups: [Result<GroupSummary, GroupFailure>]) {
        self.day = day
        self.rows = rows
        self.groups = groups
    }

    public var json: JSONValue {
        .object([
            "day": .string(day.iso),
            "habits": .array(rows.map { result in
                guard case .success(let summary) = result, case .object(var object) = ViewJSON.summaryRow(result) else {
                    return ViewJSON.summaryRow(result)
                }
                let entry = summary.today
                object["due"] = .bool(entry?.isDue ?? false)
                object["total"] = ViewJSON.number(entry?.total ?? 0)
                let target = DayTarget(summary.revision)
                object["goal"] = ViewJSON.number(summary.revision.goal)
                object["limit"] = target.limit.map(ViewJSON.number) ?? .null
                object["unit"] = .string(summary.habit.unit)
                object["progress"] = ViewJSON.number(entry?.progress ?? 0)
                object["state"] = .string(entry.map { ViewJSON.state($0, target: target) } ?? "notDue")
                return .object(object)
            }),
            "groups": .array(groups.map { GroupDayView($0).json }),
        ])
    }
}
