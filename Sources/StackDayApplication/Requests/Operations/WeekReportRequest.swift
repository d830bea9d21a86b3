import StackDay

/// `report week`, `GET /v1/report/week`: the week holding `weekOf` (default today), in `lang`.
public struct WeekReportRequest: RequestType {
    public static let weekOf = RequestField<LocalDay>.day("weekOf", help: "Any day of the week to report (default: today).")
    public static let lang = RequestField<String>.choice("lang", among: ["en", "ko"], help: "The report's language: en or ko (default: the user's).").httpOnly
        .map { $0 == "ko" ? ReportLanguage.korean : .english }
    public static let fields = [weekOf.declaration, lang.declaration]

    public var weekOf: LocalDay?
    public var language: ReportLanguage?

    public init(weekOf: LocalDay? = nil, language: ReportLanguage? = nil) {
        self.weekOf = weekOf
        self.language = language
    }

    public init(_ fields: RequestFields) throws {
        self.init(weekOf: try fields[Self.weekOf], language: try fields[Self.lang])
    }
}
