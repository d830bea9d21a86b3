import Foundation

/// Someone a service answers for: the owner whose habits a request reaches, the SHA-256 of the
/// bearer token that proves it (the token itself is never kept), and the time zone and day start
/// that turn the server's instants into this user's days.
public struct User: Hashable, Sendable {
    /// Also the owner of the user's habits, records, scripts and revisions in the store.
    public let name: String
    /// Lowercase hex SHA-256 of the token's text.
    public var tokenSHA256: String
    /// As the user gave it: an IANA name or `±HH:MM` (`TimeZoneText`).
    public var timeZone: String
    public var dayStart: DayStart
    public let createdAt: Date
    /// The language of the pages: `en` or `ko`; nil until the user chooses (the browser's
    /// `Accept-Language` decides meanwhile).
    public var language: String?
    /// The password's Argon2id hash, its salt and parameters in it (`PasswordHasher`); nil while
    /// the user signs in by token only.
    public var passwordHash: String?
    /// The token in the user's calendar feed's address (`/v1/feeds/TOKEN.ics`, `fd_` and 64 hex
    /// digits); nil until the user asks for a feed. Kept as it is, not hashed, so that the address
    /// can be shown again: it opens that read-only feed and nothing else.
    public var feedToken: String?
    /// The day the user's weeks begin on; changing it is a rule change (`ManageUsers.configure`).
    public var weekStart: WeekStart = .monday
    /// The user's own limits (`stackday user limits`), laid over the server's (`serve --limit`);
    /// none set: the server's hold.
    public var limits = UserLimits()

    /// The languages a user may choose.
    public static let languages = ["en", "ko"]

    /// Throws `UseCaseError.invalidUserName`, `.invalidTimeZone` or `.invalidLanguage`.
    public init(name: String, tokenSHA256: String, timeZone: String, dayStart: DayStart, createdAt: Date, language: String? = nil) throws {
        if let language, !User.languages.contains(language) { throw UseCaseError.invalidLanguage(text: language) }
        guard User.isValidName(name) else { throw UseCaseError.invalidUserName(name: name) }
        guard TimeZoneText.parse(timeZone) != nil else { throw UseCaseError.invalidTimeZone(text: timeZone) }
        self.name = name
        self.tokenSHA256 = tokenSHA256
        self.timeZone = timeZone
        self.dayStart = dayStart
        self.createdAt = createdAt
        self.language = language
    }

    /// How this user's instants become days, and days weeks.
    public var boundary: DayBoundary {
        DayBoundary(timeZone: TimeZoneText.parse(timeZone) ?? TimeZone(secondsFromGMT: 0)!, dayStart: dayStart, weekStart: weekStart)
    }

    /// 1 to 100 printable characters (no control, format or unassigned code points), without
    /// leading or trailing spaces: what `--user` and `user add` accept.
    public static func isValidName(_ name: String) -> Bool {
        let printable = name.unicodeScalars.allSatisfy { scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .privateUse, .unassigned: false
            default: true
            }
        }
        guard let first = name.unicodeScalars.first, let last = name.unicodeScalars.last else { return false }
        return name.count <= 100 && printable && !first.isBlank && !last.isBlank
    }
}
