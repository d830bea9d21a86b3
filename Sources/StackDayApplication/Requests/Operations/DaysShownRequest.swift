import StackDay

/// What one operation that shows a span of days says of its `from` and `to` defaults.
public protocol DaysShown: Sendable {
    static var fromHelp: String { get }
    static var toHelp: String { get }
}

/// `calendar`, `explain`, `log` and their endpoints: the days shown, `from` … `to`; what each
/// defaults to is the operation's (`Shown`).
public struct DaysShownRequest<Shown: DaysShown>: RequestType {
    public static var from: RequestField<LocalDay> { .day("from", help: Shown.fromHelp) }
    public static var to: RequestField<LocalDay> { .day("to", help: Shown.toHelp) }
    public static var fields: [FieldDeclaration] { [from.declaration, to.declaration] }

    public var from: LocalDay?
    public var to: LocalDay?
    public var naming: FieldNaming

    public init(from: LocalDay? = nil, to: LocalDay? = nil, naming: FieldNaming = FieldNaming(http: true)) {
        self.from = from
        self.to = to
        self.naming = naming
    }

    public init(_ fields: RequestFields) throws {
        self.init(from: try fields[Self.from], to: try fields[Self.to], naming: fields.naming)
    }

    /// `first` … `last`, or `LABEL FIRST is after LABEL LAST`.
    func range(_ first: LocalDay, _ last: LocalDay) throws -> LocalDayRange {
        guard first <= last else { throw RequestError("\(naming(Self.from)) \(first) is after \(naming(Self.to)) \(last)") }
        return LocalDayRange(first, last)
    }
}

/// `calendar NAME…`, `GET /v1/calendar/{name}`.
public enum CalendarDays: DaysShown {
    public static let fromHelp = "The first day (default: 26 weeks ago, or the start day)."
    public static let toHelp = "The last day (default: today)."
}

/// `explain NAME`, `GET /v1/habits/{name}/explain`.
public enum ExplainedDays: DaysShown {
    public static let fromHelp = "The first day shown (default: 8 weeks before --to)."
    public static let toHelp = "The last day shown (default: today)."
}

/// `log NAME`, `GET /v1/habits/{name}/records`.
public enum LoggedDays: DaysShown {
    public static let fromHelp = "The first day (default: the habit's start, at most ten years back)."
    public static let toHelp = "The last day (default: today)."
}

public typealias CalendarRequest = DaysShownRequest<CalendarDays>
public typealias RecordLogRequest = DaysShownRequest<LoggedDays>
