import StackDay

/// `PUT /v1/settings`, `stackday user set`: a time zone, a day start, a language, a week start;
/// what is not given stays.
public struct SettingsRequest: RequestType {
    public static let timeZone = RequestField<String>.text("timeZone", help: "An IANA time zone, e.g. Asia/Seoul.")
    public static let dayStartsAt = RequestField<String>.text("dayStartsAt", help: "When a day starts, HH:MM (a late night still counts for the day before).")
        .map { try DayStart(parsing: $0) }
    public static let language = RequestField<String>.text("language", help: "en or ko.", schema: ["enum": .array(User.languages.map(JSONValue.string))])
    public static let weekStartsOn = RequestField<String>.choice(
        "weekStartsOn", among: WeekStart.allCases.map(\.rawValue),
        help: "The day weeks begin on: mon or sun. Quota weeks, calendars and the weekly report follow it; habits counting weeks get new rules from the next such week."
    ).map { WeekStart(rawValue: $0) ?? .monday }
    public static let fields = [timeZone.declaration, dayStartsAt.declaration, language.declaration, weekStartsOn.declaration]

    public var timeZone: String?
    public var dayStart: DayStart?
    public var language: String?
    public var weekStart: WeekStart?

    public init(_ fields: RequestFields) throws {
        timeZone = try fields[Self.timeZone]
        dayStart = try fields[Self.dayStartsAt]
        language = try fields[Self.language]
        weekStart = try fields[Self.weekStartsOn]
    }
}
