import Foundation

/// Options accepted before or after any command.
struct GlobalOptions {
    static let specs: [OptionSpec] = [
        OptionSpec(name: "db", valueName: "path", help: "The database file (default: $STACKDAY_DB, else $XDG_DATA_HOME/stackday/stackday.sqlite)."),
        OptionSpec(name: "database", valueName: "url", help: "postgres://… or postgresql://… for PostgreSQL, sqlite:PATH or a path for SQLite (default: $STACKDAY_DATABASE_URL, else --db)."),
        OptionSpec(name: "user", valueName: "name", help: "Whose habits (default: $STACKDAY_USER, else default)."),
        OptionSpec(name: "tz", valueName: "zone", help: "The time zone: an IANA name or ±HH:MM (default: the system zone)."),
        OptionSpec(name: "now", valueName: "instant", help: "A fixed current instant, ISO 8601 with an offset (2026-10-11T20:00:00+09:00)."),
        OptionSpec(name: "day-starts-at", valueName: "HH:MM", help: "When a day begins (default: 00:00)."),
        OptionSpec(name: "week-starts", valueName: "mon|sun", help: "The day weeks begin on, for calendars, reports and new quota habits (default: the user's, set by 'user set', else mon)."),
        OptionSpec(name: "policies", valueName: "dir", help: "The user policy folder, searched before the built-ins (default: $STACKDAY_POLICIES, else ~/.config/stackday/policies)."),
        OptionSpec(name: "json", valueName: nil, help: "Print machine-readable JSON on stdout."),
        OptionSpec(name: "no-cache", valueName: nil, help: "Evaluate every habit from scratch, neither reading nor keeping cached policy answers."),
        OptionSpec(name: "isolate-policies", valueName: nil, help: "Run policy scripts in runner processes that are killed at their deadline, as the server does (default: in this process)."),
        OptionSpec(name: "quiet", valueName: nil, help: "No progress or working… lines on stderr (they appear only on a terminal)."),
        OptionSpec(name: "lang", valueName: "en|ko", help: "The language of the text every command prints (default: from $LC_ALL, $LC_MESSAGES or $LANG: ko… is ko, else en)."),
    ]

    var values: [String: String] = [:]
    /// Every value of an option given more than once, in order (`values` keeps the last).
    var every: [String: [String]] = [:]
    var flags: Set<String> = []

    var json: Bool { flags.contains("json") }
    var noCache: Bool { flags.contains("no-cache") }
    var quiet: Bool { flags.contains("quiet") }
    var isolatePolicies: Bool { flags.contains("isolate-policies") }

    var db: String? { values["db"] }
    var database: String? { values["database"] }
    var user: String? { values["user"] }
    /// Every `--user` given: the users `policy publish` and `unpublish` name.
    var users: [String] { every["user"] ?? [] }
    var timeZone: String? { values["tz"] }
    var now: String? { values["now"] }
    var dayStartsAt: String? { values["day-starts-at"] }
    var weekStarts: String? { values["week-starts"] }
    var policies: String? { values["policies"] }
    var lang: String? { values["lang"] }
}
