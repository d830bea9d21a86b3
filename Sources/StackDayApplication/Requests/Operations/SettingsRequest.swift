import StackDay

/// `PUT /v1/settings`: a time zone, a day start, a language; what is not given stays.
public struct SettingsRequest: RequestType {
    public static let timeZone = RequestField<String>.text("timeZone", help: "An IANA time zone, e.g. Asia/Seoul.")
    public static let dayStartsAt = RequestField<String>.text("dayStartsAt", help: "When a day starts, HH:MM (a late night still counts for the day before).")
        .map { try DayStart(parsing: $0) }
    public static let language = RequestField<String>.text("language", help: "en or ko.", schema: ["enum": .array(User.languages.map(JSONValue.string))])
    public static let fields = [timeZone.declaration, dayStartsAt.declaration, language.declaration]

    public var timeZone: String?
    public var dayStart: DayStart?
    public var language: String?

    public init(_ fields: RequestFields) throws {
        timeZone = try fields[Self.timeZone]
        dayStart = try fields[Self.dayStartsAt]
        language = try fields[Self.language]
    }
}
