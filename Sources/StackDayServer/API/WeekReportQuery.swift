import StackDayApplication

/// `GET /v1/report/week`'s query: the report's (`WeekReportRequest`) and `format=json` for JSON
/// instead of text.
struct WeekReportQuery: RequestType {
    static let format = RequestField<String>.choice("format", among: ["json"], help: "json for the JSON report (default: text).")
    static let fields = WeekReportRequest.fields + [format.declaration]

    let report: WeekReportRequest
    let json: Bool

    init(_ fields: RequestFields) throws {
        report = try WeekReportRequest(fields)
        json = try fields[Self.format] != nil
    }
}
