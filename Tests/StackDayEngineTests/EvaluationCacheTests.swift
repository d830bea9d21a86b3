import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDayTestSupport

/// A PostgreSQL server for the cache tests on that store, stopped when the test process exits.
let cacheServer = Result { try PostgresServer() }

/// The evaluation cache changes no figure: random writes and reads, each read compared with a
/// from-scratch evaluation of the same store.
@Suite("evaluation cache")
struct EvaluationCacheTests {
    let epoch = Date(timeIntervalSince1970: 1_790_000_000)
    let zone = DayBoundary(timeZone: TimeZone(secondsFromGMT: 0)!)

    static let schedules: [(String, String)] = [
        ("daily", "{}"), ("weekdays", "{}"), ("weekly", #"{"days":["mon","thu"]}"#), ("every-n-days", #"{"every":2}"#),
        ("times-per-week", #"{"times":2}"#), ("times-per-month", #"{"times":5}"#), ("times-in-days", #"{"times":2,"days":4}"#),
        ("monthly-day", #"{"day":5}"#),
    ]
    static let streaks: [(String, String)] = [("strict", "{}"), ("grace", #"{"misses":1,"per":5}"#), ("freeze", #"{"earnEvery":3,"max":2}"#)]
    static let progresses: [(String, String)] = [("goal", "{}"), ("at-most", #"{"limit":2}"#)]
    static let groupRules: [(String, String)] = [("all", "{}"), ("any", "{}"), ("at-least", #"{"count":2}"#), ("sum", #"{"goal":3}"#)]

    func choice(_ pair: (String, String)) throws -> PolicyChoice { try PolicyChoice(name: pair.0, parametersJSON: pair.1) }

    func context(_ store: any HabitStore, _ library: PolicyLibrary, today: LocalDay, cached: Bool) -> HabitContext {
        HabitContext(store: store, clock: FixedClock(today.firstInstant(in: zone.timeZone).addingTimeInterval(20 * 3600)),
                     boundary: zone, policies: library, usesEvaluationCache: cached)
    }

    /// Everything a reader sees, as text: today's summaries, the week's report, every timeline.
    func figures(_ context: HabitContext) throws -> [String] {
        func text<T>(_ result: Result<T, HabitFailure>, _ describe: (T) -> String) -> String {
            switch result {
            case .success(let value): describe(value)
            case .failure(let failure): "failed: \(failure)"
            }
        }
        let summaries = try SummarizeHabits(context: context)().map { result in
            text(result) {
                "\($0.habit.name) \($0.statistics) \(String(describing: $0.today)) r\($0.revision.number) \(String(describing: $0.quota)) \(String(describing: $0.period))"
            }
        }
        // A report line without its habit, whose parameters print in no fixed order.
        func lines(_ report: WeeklyReport) -> String {
            report.rows.map { row in
                text(row) { "\($0.habitName) \($0.marks) \($0.total) \($0.metDays)/\($0.dueDays) \($0.streak) \($0.countsIn)" }
            }.joined(separator: "; ")
        }
        let report = try BuildWeeklyReport(context: context)()
        let lastWeek = try BuildWeeklyReport(context: context)(weekOf: context.today.adding(days: -7))
        let timelines = try LoadTimeline(context: context).all().map { result in
            text(result) { timeline in
                "\(timeline.entries) \(timeline.periods) \(timeline.segments.map { "\($0.revision.number) \($0.days) \(String(describing: $0.quota))" })"
            }
        }
        let groups = try SummarizeGroups(context: context)().map { result -> String in
            switch result {
            case .success(let group):
                "\(group.group.name) \(group.members.map(\.name)) \(group.statistics) \(group.days) \(group.todayMembers) \(group.scores.map(\.score))"
            case .failure(let failure): "failed: \(failure)"
            }
        }
        return summaries + [lines(report), lines(lastWeek)] + timelines + groups
    }

    @Test("random records, undos, skips, edits, archives and imports: cached figures equal from-scratch ones after every step",
          arguments: ["sqlite", "postgres"], [11, 29, 47] as [UInt64])
    func property(kind: String, seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        let folder = try TemporaryFolder()
        let owner = "cache-\(seed)-\(UUID().uuidString)"
        let store: any HabitStore = kind == "sqlite"
            ? try SQLiteHabitStore(path: folder.path("cache.sqlite"), owner: owner)
            : try PostgresHabitStore(url: try cacheServer.get().url, owner: owner)
        // The cache must be in use for the comparison to mean anything: it holds rows (not
        // always figures: with every habit archived, none has figures as of today).
        func cachedRows() throws -> Int {
            kind == "sqlite"
                ? Int(sqlite(folder.path("cache.sqlite"), "SELECT count(*) FROM evaluation_cache WHERE owner = '\(owner)'").first ?? "") ?? 0
                : Int(try cacheServer.get().psql("SELECT count(*) FROM evaluation_cache WHERE user_id = '\(owner)'")
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        func cachedGroups() throws -> Int {
            kind == "sqlite"
                ? Int(sqlite(folder.path("cache.sqlite"), "SELECT count(*) FROM group_cache WHERE owner = '\(owner)'").first ?? "") ?? 0
                : Int(try cacheServer.get().psql("SELECT count(*) FROM group_cache WHERE user_id = '\(owner)'")
                    .trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        }
        let library = try PolicyLibrary(searchPath: [])
        let start = try LocalDay(iso: "2026-09-01")
        var today = start.adding(days: 20)
        var names: [String] = []
        for index in 0..<3 {
            let setup = context(store, library, today: today, cached: true)
            let name = "habit \(index)"
            try CreateHabit(context: setup)(
                name: name, startedOn: start.adding(days: index * 3), goal: Double(Int.random(in: 1...3, using: &random)),
                schedule: try choice(Self.schedules.randomElement(using: &random)!), progress: try choice(Self.progresses.randomElement(using: &random)!),
                streak: try choice(Self.streaks.randomElement(using: &random)!)
            )
            names.append(name)
        }
        let setup = context(store, library, today: today, cached: true)
        try CreateGroup(context: setup)(name: "routine", members: ["habit 0", "habit 1"], rule: try choice(Self.groupRules.randomElement(using: &random)!))
        try CreateGroup(context: setup)(name: "everything", members: names, rule: try choice(Self.groupRules.randomElement(using: &random)!),
                                        streak: try choice(Self.streaks.randomElement(using: &random)!))
        for step in 0..<100 {
            let cached = context(store, library, today: today, cached: true)
            let name = names.randomElement(using: &random)!
            let habit = try FindHabit(context: cached)(named: name)
            let span = max(0, habit.startedOn.days(to: today))
            let day = habit.startedOn.adding(days: Int.random(in: 0...span, using: &random))
            var action = ""
            do {
                switch Int.random(in: 0..<100, using: &random) {
                case 0..<35:
                    action = "record \(name) \(day)"
                    try RecordCompletion(context: cached)(habitName: name, amount: Double(Int.random(in: 1...3, using: &random)), on: day)
                case 35..<45:
                    action = "undo \(name) \(day)"
                    try CancelCompletion(context: cached)(habitName: name, on: day)
                case 45..<52:
                    action = "skip \(name) \(day)"
                    try SkipDays(context: cached)(habitName: name, days: LocalDayRange(day, day.adding(days: Int.random(in: 0...2, using: &random))))
                case 52..<62:
                    let from: RevisionStart = Bool.random(using: &random) ? .day(day.adding(days: Int.random(in: 0...3, using: &random))) : .retroactive
                    action = "edit \(name) from \(from)"
                    let changes: HabitChanges
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: changes = HabitChanges(schedule: try choice(Self.schedules.randomElement(using: &random)!), rulesFrom: from)
                    case 1: changes = HabitChanges(streak: try choice(Self.streaks.randomElement(using: &random)!), rulesFrom: from)
                    default: changes = HabitChanges(goal: Double(Int.random(in: 1...3, using: &random)), rulesFrom: from)
                    }
                    try EditHabit(context: cached)(habitName: name, changes: changes)
                case 62..<66:
                    action = "rollback \(name)"
                    try RollBackRules(context: cached)(.name(name), from: day)
                case 66..<71:
                    if habit.archivedOn == nil {
                        action = "archive \(name) \(day)"
                        try ArchiveHabit(context: cached)(habitName: name, on: day)
                    } else {
                        action = "unarchive \(name)"
                        try UnarchiveHabit(context: cached)(habitName: name)
                    }
                case 71..<76:
                    action = "import \(name) around \(day)"
                    let completions = try (0..<3).map { offset in
                        try Completion(habitID: habit.id, completedOn: max(habit.startedOn, day.adding(days: -offset)), recordedAt: epoch, amount: 1)
                    }
                    try ImportArchive(context: cached)(HabitArchive(completions: completions))
                case 76..<86:
                    today = today.adding(days: Int.random(in: 1...3, using: &random))
                    action = "advance to \(today)"
                case 86..<93:
                    let group = Bool.random(using: &random) ? "routine" : "everything"
                    let from = today.adding(days: -Int.random(in: 0...5, using: &random))
                    var changes = EditGroup.Changes(from: from)
                    if Bool.random(using: &random) {
                        changes.members = names.shuffled(using: &random).prefix(Int.random(in: 1...3, using: &random)).map { $0 }
                    } else {
                        changes.rule = try choice(Self.groupRules.randomElement(using: &random)!)
                    }
                    action = "edit group \(group) from \(from)"
                    try EditGroup(context: cached)(group, changes)
                case 93..<95:
                    let group = Bool.random(using: &random) ? "routine" : "everything"
                    action = "roll back group \(group) from \(day)"
                    try RollBackGroup(context: cached)(group, from: day)
                default:
                    action = "read"
                }
            } catch is UseCaseError, is GroupError {
                // A refused write (a duplicate record, nothing to undo, a day outside the period) writes nothing.
            } catch let error as HabitValidationError {
                Issue.record("seed \(seed) step \(step) \(action): \(error)")
            }
            let first = try figures(context(store, library, today: today, cached: true))
            let scratch = try figures(context(store, library, today: today, cached: false))
            let again = try figures(context(store, library, today: today, cached: true))
            #expect(try cachedRows() > 0, "seed \(seed), step \(step): nothing was cached")
            #expect(try cachedGroups() == 2, "seed \(seed), step \(step) after \(action): the groups were not cached")
            #expect(first == scratch, "seed \(seed), step \(step), after \(action): \(Self.difference(first, scratch))")
            #expect(again == scratch, "seed \(seed), step \(step), after \(action), read back from the cache: \(Self.difference(again, scratch))")
            if first != scratch || again != scratch { return }
        }
    }

    func sqlite(_ path: String, _ sql: String) -> [String] { SQLiteShell.run(path, sql) }

    /// The first figure that differs, cached against from scratch.
    static func difference(_ cached: [String], _ scratch: [String]) -> String {
        guard let index = zip(cached, scratch).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset else {
            return "\(cached.count) figures against \(scratch.count)"
        }
        let (a, b) = (Array(cached[index]), Array(scratch[index]))
        let common = zip(a, b).prefix { $0 == $1 }.count
        let start = max(0, common - 150)
        return "figure \(index): cached …\(String(a[start..<min(a.count, common + 150)]))… from scratch …\(String(b[start..<min(b.count, common + 150)]))…"
    }

    /// A populated store whose cache holds every habit.
    func warmStore(_ folder: TemporaryFolder) throws -> (SQLiteHabitStore, PolicyLibrary, HabitContext, String) {
        let path = folder.path("warm.sqlite")
        let store = try SQLiteHabitStore(path: path)
        let library = try PolicyLibrary(searchPath: [])
        let today = try LocalDay(iso: "2026-10-20")
        let setup = context(store, library, today: today, cached: true)
        try CreateHabit(context: setup)(name: "read", startedOn: today.adding(days: -40), streak: PolicyChoice(name: "grace"))
        try CreateHabit(context: setup)(name: "gym", startedOn: today.adding(days: -40), schedule: try choice(("times-per-week", #"{"times":2}"#)))
        for offset in stride(from: 0, through: 40, by: 1) where offset % 4 != 1 {
            try RecordCompletion(context: setup)(habitName: "read", on: today.adding(days: -offset))
            if offset % 3 == 0 { try RecordCompletion(context: setup)(habitName: "gym", on: today.adding(days: -offset)) }
        }
        try CreateGroup(context: setup)(name: "both", members: ["read", "gym"], rule: PolicyChoice(name: "any"))
        _ = try figures(setup)
        return (store, library, setup, path)
    }

    @Test("a cached row reads back as it was written, its days intact (PostgreSQL's bytea, SQLite's BLOB)", arguments: ["sqlite", "postgres"])
    func readsBack(kind: String) throws {
        let folder = try TemporaryFolder()
        let owner = "read-back-\(UUID().uuidString)"
        let store: any HabitStore = kind == "sqlite"
            ? try SQLiteHabitStore(path: folder.path("cache.sqlite"), owner: owner)
            : try PostgresHabitStore(url: try cacheServer.get().url, owner: owner)
        let library = try PolicyLibrary(searchPath: [])
        let start = try LocalDay(iso: "2026-09-01"), today = start.adding(days: 300)
        let setup = context(store, library, today: today, cached: true)
        let habit = try CreateHabit(context: setup)(name: "water", startedOn: start, goal: 2)
        // Amounts whose thousandths fill every byte of an Int64 differently, on days spread out.
        let amounts: [(days: Int, amount: Double)] = [(0, 1.5), (1, 2), (37, 0.001), (128, 255.255), (299, 65.536)]
        for (days, amount) in amounts { try RecordCompletion(context: setup)(habitName: "water", amount: amount, on: start.adding(days: days)) }
        let expected = try figures(context(store, library, today: today, cached: false))
        #expect(try figures(setup) == expected)
        let row = try store.read { try $0.evaluations?.evaluation(habitID: habit.id) }
        let cached = try #require(row, "the row written after the read is read back and passes its checks")
        #expect(cached.firstDay == start)
        #expect(cached.thousandths.count >= 300)
        for (days, amount) in amounts { #expect(cached.thousandths[days] == Int64((amount * 1000).rounded()), "day \(days)") }
        #expect(cached.thousandths.enumerated().filter { $0.element != 0 }.count == amounts.count)
        #expect(try figures(setup) == expected, "read again from the row")
    }

    @Test("cache rows corrupted, from another format or engine, or deleted are ignored and rebuilt", arguments: [
        "UPDATE evaluation_cache SET days = substr(days, 1, length(days) - 5)",
        "UPDATE evaluation_cache SET days = zeroblob(length(days))",
        "UPDATE evaluation_cache SET spans = replace(spans, '2026', '2025')",
        "UPDATE evaluation_cache SET evaluator = 'lua-host-0:elsewhere'",
        "UPDATE evaluation_cache SET format = 0",
        "UPDATE evaluation_cache SET first_day = '2026-01-01'",
        "UPDATE evaluation_cache SET summary = replace(summary, ',', ',9')",
        "UPDATE evaluation_cache SET summary = substr(summary, 1, 30)",
        "DELETE FROM evaluation_cache",
        "UPDATE group_cache SET body = substr(body, 1, length(body) - 3)",
        "UPDATE group_cache SET body = zeroblob(length(body))",
        "UPDATE group_cache SET checksum = checksum + 1",
        "UPDATE group_cache SET format = 0",
        "UPDATE group_cache SET evaluator = 'lua-host-0:elsewhere'",
        "DELETE FROM group_cache",
    ])
    func corruption(statement: String) throws {
        let folder = try TemporaryFolder()
        let (store, library, setup, path) = try warmStore(folder)
        let expected = try figures(context(store, library, today: setup.today, cached: false))
        #expect(try figures(setup) == expected)
        #expect(sqlite(path, "SELECT count(*) FROM evaluation_cache WHERE summary_as_of IS NOT NULL") == ["2"], "both habits cached")
        #expect(sqlite(path, statement) == [])
        #expect(try figures(setup) == expected, "\(statement)")
        #expect(try figures(setup) == expected, "\(statement), read again")
    }

    @Test("a group is read from its row, building no member's timeline, until a write to a member or to the group, by anyone, makes it stale")
    func groupRow() throws {
        let folder = try TemporaryFolder()
        let (store, library, setup, path) = try warmStore(folder)
        func groups(_ context: HabitContext) throws -> [String] {
            try SummarizeGroups(context: context)().map { result in
                switch result {
                case .success(let group): "\(group.statistics) \(group.days) \(group.todayMembers) \(group.scores.map(\.score))"
                case .failure(let failure): "failed: \(failure)"
                }
            }
        }
        func scratch() throws -> [String] { try groups(context(store, library, today: setup.today, cached: false)) }
        #expect(sqlite(path, "SELECT count(*) FROM group_cache") == ["1"])
        // Answered from the group's row: no member timeline is built, so none is cached again.
        #expect(sqlite(path, "DELETE FROM evaluation_cache") == [])
        #expect(try groups(setup) == (try scratch()))
        #expect(sqlite(path, "SELECT count(*) FROM evaluation_cache") == ["0"])
        // A completion written by another program moves the member's counter: the row no longer holds.
        let gym = sqlite(path, "SELECT id FROM habits WHERE name = 'gym'")[0]
        #expect(sqlite(path, "INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths) "
            + "VALUES ('default', '\(UUID().uuidString)', '\(gym)', '\(setup.today.adding(days: -1).iso)', 0, 1000)") == [])
        let before = try groups(setup)
        #expect(try before == scratch())
        #expect(sqlite(path, "SELECT count(*) FROM evaluation_cache") != ["0"], "the members were judged again")
        // A revision written by another program deletes the group's row, by trigger.
        #expect(sqlite(path, "SELECT count(*) FROM group_cache") == ["1"])
        #expect(sqlite(path, "UPDATE group_revisions SET group_policy = 'all', group_sha256 = NULL") == [])
        #expect(sqlite(path, "SELECT count(*) FROM group_cache") == ["0"])
        #expect(try groups(setup) == (try scratch()))
        let after = try groups(setup)
        #expect(after != before, "judged by the rule written")
    }

    @Test("a read past today (the week's report) never leaves a quota period's figures as of a later day in the cache (D12)")
    func quotaPeriodNotPastToday() throws {
        let folder = try TemporaryFolder()
        let library = try PolicyLibrary(searchPath: [])
        let store = try SQLiteHabitStore(path: folder.path("cache.sqlite"))
        let wednesday = try LocalDay(iso: "2026-11-25")
        let cached = context(store, library, today: wednesday, cached: true)
        let scratch = context(store, library, today: wednesday, cached: false)
        try CreateHabit(context: cached)(name: "gym", startedOn: wednesday.adding(days: -16), schedule: try choice(("times-per-week", #"{"times":3}"#)))
        for offset in [2, 1, 9, 10, 11] { try RecordCompletion(context: cached)(habitName: "gym", on: wednesday.adding(days: -offset)) }
        func summaries(_ context: HabitContext) throws -> [String] {
            try SummarizeHabits(context: context)().map { result in
                switch result {
                case .success(let summary): "\(summary.statistics) \(String(describing: summary.today)) \(String(describing: summary.quota)) \(String(describing: summary.period))"
                case .failure(let failure): "failed: \(failure)"
                }
            }
        }
        _ = try summaries(cached) // warm
        _ = try BuildWeeklyReport(context: cached)() // reads through Sunday
        #expect(try summaries(cached) == summaries(scratch))
    }

    @Test("a habit whose policy fails caches nothing; the others are cached as usual")
    func failedEvaluation() throws {
        let folder = try TemporaryFolder()
        let policies = folder.url.appendingPathComponent("policies")
        try FileManager.default.createDirectory(at: policies, withIntermediateDirectories: true)
        try "return { isDue = function(day) if day.ordinal > 20360 then error('broken on purpose') end return true end }"
            .write(to: policies.appendingPathComponent("late.lua"), atomically: true, encoding: .utf8)
        let path = folder.path("failing.sqlite")
        let store = try SQLiteHabitStore(path: path)
        let library = try PolicyLibrary(searchPath: [policies])
        let today = try LocalDay(iso: "2026-10-20") // ordinal 20746
        let setup = context(store, library, today: today, cached: true)
        try CreateHabit(context: setup)(name: "fine", startedOn: today.adding(days: -10))
        try CreateHabit(context: setup)(name: "late", startedOn: today.adding(days: -10), schedule: PolicyChoice(name: "late"))
        let results = try SummarizeHabits(context: setup)()
        #expect(results.count == 2 && (try? results[0].get()) != nil && results[1].failure?.message.contains("broken on purpose") == true)
        let cached = "SELECT h.name FROM evaluation_cache c JOIN habits h ON h.id = c.habit_id ORDER BY h.name"
        #expect(sqlite(path, cached) == ["fine"])
        // Read again: still failing, still not cached; the healthy habit answers from its row.
        #expect(try SummarizeHabits(context: setup)()[1].failure != nil)
        #expect(sqlite(path, cached) == ["fine"])
    }
}
