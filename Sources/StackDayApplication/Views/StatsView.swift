import StackDay

/// `stats`, `GET /v1/stats`: `{"habits": [row…], "groups": [GroupDayView…]}`, each row the
/// habit's fields and figures (`ViewJSON.summaryRow`); the groups only when no habit is named.
public struct StatsView: JSONView {
    public let rows: [Result<HabitSummary, HabitFailure>]
    public let groups: [Result<GroupSummary, GroupFailure>]

    public init(rows: [Result<HabitSummary, HabitFailure>], groups: [Result<GroupSummary, GroupFailure>] = []) {
        self.rows = rows
        self.groups = groups
    }

    public var failures: [HabitFailure] { rows.failures() }

    public var json: JSONValue { .object(["habits": .array(rows.map(ViewJSON.summaryRow)), "groups": .array(groups.map { GroupDayView($0).json })]) }
}
