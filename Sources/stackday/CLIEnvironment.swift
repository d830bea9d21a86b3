import Foundation
import StackDay
import StackDayApplication
import StackDayExchange
import StackDayLua
import StackDayPostgres
import StackDaySQLite

/// What the commands share: the global options turned into a clock, a day boundary,
/// the policy library and (opened on first use) the store.
final class CLIEnvironment {
    let invocation: Invocation
    let io: TerminalIO
    let clock: any StackDay.Clock
    /// The global options' zone and day start; the week start is `--week-starts` or Monday (the
    /// user's own setting is `context().boundary`'s).
    let boundary: DayBoundary
    private let givenWeekStart: WeekStart?
    let language: ReportLanguage
    private var openedStore: (any HabitStore)?
    private var openedLibrary: PolicyLibrary?

    init(_ invocation: Invocation) throws {
        self.invocation = invocation
        io = invocation.io
        let globals = invocation.globals
        io.allowsProgress = !globals.quiet
        if globals.db?.isEmpty == true { throw invocation.usage("invalid value for --db: the path is empty") }
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
            guard let zone = TimeZoneText.parse(name) else {
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
        if let text = globals.weekStarts {
            guard let start = WeekStart(rawValue: text) else { throw invocation.usage("invalid value for --week-starts: '\(text)' (use mon or sun)") }
            givenWeekStart = start
        } else {
            givenWeekStart = nil
        }
        boundary = DayBoundary(timeZone: timeZone, dayStart: dayStart, weekStart: givenWeekStart ?? .monday)
        let today = boundary.day(for: clock.now)
        guard today.isSupported else {
            throw invocation.usage("the current instant falls on \(today), outside 0001-01-01 … 9999-12-31 (check --now and --tz)")
        }
        switch globals.lang ?? CLIEnvironment.localeLanguage(invocation.io.environment).rawValue {
        case "en": language = .english
        case "ko": language = .korean
        case let other: throw invocation.usage("invalid value for --lang: '\(other)' (use en or ko)")
        }
    }

    var json: Bool { invocation.globals.json }

    /// The words of `language`.
    var words: Words { Words(language) }

    /// The language the locale asks for: the first of `LC_ALL`, `LC_MESSAGES` and `LANG` that is
    /// set and not empty decides (POSIX precedence); `ko…` is Korean, anything else English.
    static func localeLanguage(_ environment: [String: String]) -> ReportLanguage {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("ko") ? .korean : .english
        }
        return .english
    }

    /// Where the data lives: `--database URL`, else `$STACKDAY_DATABASE_URL`, else `--db PATH` or
    /// the default SQLite file.
    enum Database {
        case sqlite(String)
        case postgres(String)
    }

    func database() throws -> Database { try Self.database(of: invocation) }

    /// Checks the store options (`--db`, `--database`, `--user` and their variables) of any
    /// command, so that one it does not use is still refused when it is wrong, as every
    /// command refuses it.
    static func checkStoreOptions(_ invocation: Invocation) throws {
        _ = try database(of: invocation)
        _ = try user(of: invocation)
    }

    static func database(of invocation: Invocation) throws -> Database {
        let url = invocation.globals.database ?? invocation.io.environment["STACKDAY_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if invocation.globals.database != nil, invocation.globals.db != nil {
            throw invocation.usage("--db and --database name two stores; give one")
        }
        guard let url, invocation.globals.db == nil else { return .sqlite(invocation.globals.db ?? StoreLocation.defaultPath(environment: invocation.io.environment)) }
        if url.hasPrefix("postgres://") || url.hasPrefix("postgresql://") { return .postgres(url) }
        let path = url.hasPrefix("sqlite:") ? String(url.dropFirst("sqlite:".count)) : url
        guard !path.isEmpty, !path.contains("://") else {
            throw invocation.usage("invalid value for --database: '\(url)' (use postgres://…, postgresql://…, sqlite:PATH or a path)")
        }
        return .sqlite(path)
    }

    /// The user whose habits the commands act on: `--user`, else `$STACKDAY_USER`, else `default`.
    func user() throws -> String { try Self.user(of: invocation) }

    static func user(of invocation: Invocation) throws -> String {
        let name = invocation.globals.user ?? invocation.io.environment["STACKDAY_USER"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
        guard User.isValidName(name) else {
            throw invocation.usage("invalid value for --user: a user name has 1 to 100 printable characters, without leading or trailing spaces")
        }
        return name
    }

    /// The store, opened on first use; a SQLite file this opening creates is removed again if the
    /// command fails.
    func store() throws -> any HabitStore {
        if let openedStore { return openedStore }
        let user = try user()
        let store: any HabitStore
        switch try database() {
        case .postgres(let url):
            store = try PostgresHabitStore(url: url, owner: user)
        case .sqlite(let path):
            let isNew = path != ":memory:" && !path.hasPrefix("file:") && !FileManager.default.fileExists(atPath: path)
            if isNew { invocation.createdFiles.add(path) }
            store = try SQLiteHabitStore(path: path, owner: user)
        }
        openedStore = store
        return store
    }

    var userPolicyFolder: URL {
        if let path = invocation.globals.policies { return URL(fileURLWithPath: path) }
        return PolicyLibrary.userFolder(environment: invocation.io.environment)
    }

    func library() throws -> PolicyLibrary {
        if let openedLibrary { return openedLibrary }
        let library = try PolicyLibrary(searchPath: [userPolicyFolder], budget: try policyBudget())
        openedLibrary = library
        return library
    }

    /// What runs policies for the use cases: the library in this process, or with
    /// `--isolate-policies` runner processes started from this executable.
    func policies() throws -> any PolicyResolver {
        let library = try library()
        guard invocation.globals.isolatePolicies else { return library }
        return IsolatedPolicyResolver(library: library, pool: PolicyRunnerPool(executable: PolicyRunnerPool.currentExecutable, budget: library.budget))
    }

    /// The per-call policy budgets: the defaults, or `$STACKDAY_POLICY_INSTRUCTIONS`,
    /// `$STACKDAY_POLICY_CPU_MS` and `$STACKDAY_POLICY_MEMORY_MB` for policies that need more.
    func policyBudget() throws -> PolicyBudget {
        var budget = PolicyBudget.standard
        let environment = invocation.io.environment
        if let text = environment["STACKDAY_POLICY_INSTRUCTIONS"] {
            guard let value = Int(text), value >= 1_000 else {
                throw CommandFailure("STACKDAY_POLICY_INSTRUCTIONS must be a whole number of at least 1000, not '\(text)'")
            }
            budget.instructions = value
        }
        if let text = environment["STACKDAY_POLICY_CPU_MS"] {
            guard let value = Int(text), (1...3_600_000).contains(value) else {
                throw CommandFailure("STACKDAY_POLICY_CPU_MS must be a whole number from 1 to 3600000, not '\(text)'")
            }
            budget.cpuMilliseconds = value
        }
        if let text = environment["STACKDAY_POLICY_MEMORY_MB"] {
            guard let value = Int(text), (1...65_536).contains(value) else {
                throw CommandFailure("STACKDAY_POLICY_MEMORY_MB must be a whole number from 1 to 65536, not '\(text)'")
            }
            budget.memoryBytes = value << 20
        }
        return budget
    }

    /// The use cases' context. A store written before policy scripts were kept has its rules
    /// pinned to the scripts their names resolve to now, once, on first use.
    func context() throws -> HabitContext {
        let store = try store()
        if weekStart == nil {
            // `--week-starts`, else the user's own setting when the store keeps the user (`user set`).
            let user = try user()
            weekStart = try givenWeekStart ?? store.read { try $0.users.user(named: user)?.weekStart } ?? .monday
        }
        let boundary = DayBoundary(timeZone: self.boundary.timeZone, dayStart: self.boundary.dayStart, weekStart: weekStart ?? .monday)
        let context = HabitContext(store: store, clock: clock, boundary: boundary, policies: try policies(),
                                   usesEvaluationCache: !invocation.globals.noCache)
        if !pinChecked {
            pinChecked = true
            if try store.read({ try $0.habits.hasUnpinnedRevisions() }) {
                do {
                    try PinStoredPolicies(context: context)()
                } catch StoreError.readOnly {
                    // A read-only file keeps its rules unpinned; they resolve by name as before.
                }
            }
        }
        return context
    }
    private var pinChecked = false
    private var weekStart: WeekStart?

    /// The application layer over `context()`.
    func application() throws -> Application { Application(context: try context()) }

    /// Where the user's policy names are found (`PolicyDirectory`): over the store when it exists,
    /// else over an empty one, so that authoring a policy never creates a database.
    func directory() throws -> PolicyDirectory {
        if case .sqlite(let path) = try database(), openedStore == nil, path != ":memory:", !path.hasPrefix("file:"),
           !FileManager.default.fileExists(atPath: path) {
            return HabitContext(store: InMemoryHabitStore().scoped(to: try user()), clock: clock, boundary: boundary, policies: try policies()).directory
        }
        return try context().directory
    }

    /// Whether a command's argument names a file rather than a policy or a schedule: it ends `.lua`,
    /// is a file that exists, or holds a `/` in one word with no `;` or `=` (a pasted calendar rule,
    /// `DTSTART;TZID=Asia/Seoul:…`, holds a `/` too and is not a path).
    static func isPath(_ target: String) -> Bool {
        if target.hasSuffix(".lua") || FileManager.default.fileExists(atPath: target) { return true }
        return target.contains("/") && !target.contains(where: { $0.isWhitespace || $0 == ";" || $0 == "=" })
    }

    /// The policy a command names: a path to a `.lua` file (`isPath`), read as it is now, else a
    /// name as it resolves for the user (`PolicyDirectory`), with where it was found. Compiled in
    /// this process's sandbox.
    func policy(_ target: String) throws -> (policy: LoadedPolicy, resolved: ResolvedPolicy?) {
        let library = try library()
        if Self.isPath(target) {
            guard FileManager.default.fileExists(atPath: target) else { throw CommandFailure("no such file: \(target)") }
            return (try library.policy(at: URL(fileURLWithPath: target)), nil)
        }
        let resolved = try directory().resolve(target)
        if let file = resolved.file { return (try library.policy(at: URL(fileURLWithPath: file)), resolved) }
        return (try library.compiled(resolved.script), resolved)
    }

    /// Prints `view`'s JSON when `--json` was given; returns whether it did.
    func printedJSON(_ view: some JSONView) -> Bool {
        guard json else { return false }
        printJSON(view.json)
        return true
    }

    var today: LocalDay { boundary.day(for: clock.now) }

    /// Prints a JSON value on one line.
    func printJSON(_ value: JSONValue) {
        io.print(value.jsonText)
    }

    /// An RFC 3339 instant with an offset, parsed strictly (see `InstantText.parse`).
    static func parseInstant(_ text: String) -> Date? {
        InstantText.parse(text)
    }

}
