import Foundation
import StackDay
import StackDayLua
import StackDaySQLite

/// What the commands share: the global options turned into a clock, a day boundary,
/// the policy library and (opened on first use) the store.
final class CLIEnvironment {
    let invocation: Invocation
    let io: TerminalIO
    let clock: any StackDay.Clock
    let boundary: DayBoundary
    let language: ReportLanguage
    private var openedStore: SQLiteHabitStore?
    private var openedLibrary: PolicyLibrary?

    init(_ invocation: Invocation) throws {
        self.invocation = invocation
        io = invocation.io
        let globals = invocation.globals
        if let text = globals.now {
            guard let date = CLIEnvironment.parseInstant(text) else {
                throw invocation.usage("invalid value for --now: '\(text)' is not an ISO 8601 instant with an offset, like 2026-10-11T20:00:00+09:00")
            }
            clock = FixedClock(date)
        } else {
            clock = SystemClock()
        }
        let timeZone: TimeZone
        if let name = globals.timeZone {
            guard let zone = CLIEnvironment.parseTimeZone(name) else {
                throw invocation.usage("invalid value for --tz: unknown time zone '\(name)' (use an IANA name like Asia/Seoul, or ±HH:MM)")
            }
            timeZone = zone
        } else {
            // The command line's documented default: the system's zone.
            timeZone = TimeZone.autoupdatingCurrent
        }
        var dayStart = DayStart.midnight
        if let text = globals.dayStartsAt {
            do { dayStart = try DayStart(parsing: text) } catch { throw invocation.usage("invalid value for --day-starts-at: \(error)") }
        }
        boundary = DayBoundary(timeZone: timeZone, dayStart: dayStart)
        switch globals.lang ?? CLIEnvironment.localeLanguage(ProcessInfo.processInfo.environment).rawValue {
        case "en": language = .english
        case "ko": language = .korean
        case let other: throw invocation.usage("invalid value for --lang: '\(other)' (use en or ko)")
        }
    }

    var json: Bool { invocation.globals.json }

    /// The language the locale asks for: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is
    /// set and not empty decides (POSIX precedence); `ko…` is Korean, anything else English.
    static func localeLanguage(_ environment: [String: String]) -> ReportLanguage {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("ko") ? .korean : .english
        }
        return .english
    }

    var databasePath: String { invocation.globals.db ?? StoreLocation.defaultPath() }

    func store() throws -> SQLiteHabitStore {
        if let openedStore { return openedStore }
        let store = try SQLiteHabitStore(path: databasePath)
        openedStore = store
        return store
    }

    var userPolicyFolder: URL {
        if let path = invocation.globals.policies { return URL(fileURLWithPath: path) }
        if let path = ProcessInfo.processInfo.environment["STACKDAY_POLICIES"], !path.isEmpty { return URL(fileURLWithPath: path) }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".config/stackday/policies")
    }

    func library() throws -> PolicyLibrary {
        if let openedLibrary { return openedLibrary }
        let library = try PolicyLibrary(searchPath: [userPolicyFolder], budget: try policyBudget())
        openedLibrary = library
        return library
    }

    /// The per-call policy budgets: the defaults, or `$STACKDAY_POLICY_INSTRUCTIONS` and
    /// `$STACKDAY_POLICY_MEMORY_MB` for policies that need more.
    func policyBudget() throws -> PolicyBudget {
        var budget = PolicyBudget.standard
        let environment = ProcessInfo.processInfo.environment
        if let text = environment["STACKDAY_POLICY_INSTRUCTIONS"] {
            guard let value = Int(text), value >= 1_000 else {
                throw CommandFailure("STACKDAY_POLICY_INSTRUCTIONS must be a whole number of at least 1000, not '\(text)'")
            }
            budget.instructions = value
        }
        if let text = environment["STACKDAY_POLICY_MEMORY_MB"] {
            guard let value = Int(text), (1...65_536).contains(value) else {
                throw CommandFailure("STACKDAY_POLICY_MEMORY_MB must be a whole number from 1 to 65536, not '\(text)'")
            }
            budget.memoryBytes = value << 20
        }
        return budget
    }

    func context() throws -> HabitContext {
        HabitContext(store: try store(), clock: clock, boundary: boundary, policies: try library())
    }

    var today: LocalDay { boundary.day(for: clock.now) }

    /// Prints a JSON value on one line.
    func printJSON(_ value: JSONValue) {
        io.print(value.jsonText)
    }

    static func parseInstant(_ text: String) -> Date? {
        for style in [Date.ISO8601FormatStyle(), Date.ISO8601FormatStyle(includingFractionalSeconds: true)] {
            if let date = try? style.parse(text) { return date }
        }
        return nil
    }

    static func parseTimeZone(_ text: String) -> TimeZone? {
        let scalars = Array(text.unicodeScalars)
        if scalars.count == 6, scalars[0] == "+" || scalars[0] == "-", scalars[3] == ":",
           let hours = Int(String(text.dropFirst().prefix(2))), let minutes = Int(String(text.suffix(2))),
           hours <= 14, minutes < 60 {
            let sign = scalars[0] == "-" ? -1 : 1
            return TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60))
        }
        if text == "UTC" || text == "Z" { return TimeZone(secondsFromGMT: 0) }
        return TimeZone(identifier: text)
    }
}
