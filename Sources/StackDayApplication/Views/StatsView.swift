import StackDay

/// `stats`, `GET /v1/stats`: `{"habits": [row…]}`, each row the habit's fields and figures
/// (`ViewJSON.summaryRow`).
public struct StatsView: JSONView {
    public let rows: [Result<HabitSummary, HabitFailure>]

    public var failures: [HabitFailure] { rows.failures() }

    public var json: JSONValue { .object(["habits": .array(rows.map(ViewJSON.summaryRow))]) }
}
