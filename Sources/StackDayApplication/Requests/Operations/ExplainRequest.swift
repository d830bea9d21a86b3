import StackDay

/// `explain NAME`, `GET /v1/habits/{name}/explain`: the days shown (`from` … `to`), and whether
/// to show what the rules wrote with `trace()` (`trace`).
public struct ExplainRequest: RequestType {
    public static var from: RequestField<LocalDay> { DaysShownRequest<ExplainedDays>.from }
    public static var to: RequestField<LocalDay> { DaysShownRequest<ExplainedDays>.to }
    public static let trace = PolicyTracing.field
    public static var fields: [FieldDeclaration] { DaysShownRequest<ExplainedDays>.fields + [trace.declaration] }

    public var from: LocalDay?
    public var to: LocalDay?
    public var trace: Bool

    public init(from: LocalDay? = nil, to: LocalDay? = nil, trace: Bool = false) {
        self.from = from
        self.to = to
        self.trace = trace
    }

    public init(_ fields: RequestFields) throws {
        let days = try DaysShownRequest<ExplainedDays>(fields)
        self.init(from: days.from, to: days.to, trace: try fields[Self.trace] ?? false)
    }
}
