import Foundation
import Testing
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDayTestSupport

/// The store keeps its cache true by itself: rows written by another program (the `sqlite3` and
/// `psql` shells here) are seen by the next cached read, and a cache row that does not belong to
/// its habit, or whose scripts changed, is not used.
@Suite("evaluation cache kept by the store")
struct CacheTriggerTests {
    let base = EvaluationCacheTests()

    /// A store of `kind` whose cache holds two habits with 40 days of records, and a way to run
    /// SQL on it from outside. `OWNER` and `HABIT(name)` in the SQL are replaced by the owner's
    /// literal and a subquery for the habit's id.
    struct Warm {
        let store: any HabitStore
        let setup: HabitContext
        let owner: String
        let kind: String
        let shell: (String) throws -> String

        func run(_ template: String) throws -> String {
            let ownerColumn = kind == "sqlite" ? "owner" : "user_id"
            var sql = template.replacingOccurrences(of: "OWNER_COLUMN", with: ownerColumn)
                .replacingOccurrences(of: "OWNER", with: "'\(owner)'")
            for name in ["read", "gym"] {
                sql = sql.replacingOccurrences(of: "HABIT(\(name))", with: "(SELECT id FROM habits WHERE \(ownerColumn) = '\(owner)' AND name = '\(name)')")
            }
            return try shell(sql)
        }
    }

    struct ShellError: Error { let message: String }

    func warm(_ kind: String) throws -> (Warm, TemporaryFolder, PolicyLibrary) {
        let folder = try TemporaryFolder()
        let owner = "triggers-\(UUID().uuidString)"
        let path = folder.path("warm.sqlite")
        let store: any HabitStore = kind == "sqlite"
            ? try SQLiteHabitStore(path: path, owner: owner)
            : try PostgresHabitStore(url: try cacheServer.get().url, owner: owner)
        let library = try PolicyLibrary(searchPath: [])
        let today = try LocalDay(iso: "2026-10-20")
        let setup = base.context(store, library, today: today, cached: true)
        try CreateHabit(context: setup)(name: "read", startedOn: today.adding(days: -40), streak: PolicyChoice(name: "grace"))
        try CreateHabit(context: setup)(name: "gym", startedOn: today.adding(days: -40))
        for offset in 0...40 where offset % 4 != 1 {
            try RecordCompletion(context: setup)(habitName: "read", on: today.adding(days: -offset))
            if offset % 3 == 0 { try RecordCompletion(context: setup)(habitName: "gym", on: today.adding(days: -offset)) }
        }
        _ = try base.figures(setup)
        let shell: (String) throws -> String = kind == "sqlite"
            ? { sql in
                // The sqlite3 shell, as a person would use it (foreign keys off, its own connection).
                let result = try Subprocess(executable: URL(fileURLWithPath: "/usr/bin/sqlite3")).run(["-bail", path], input: sql, timeout: 30)
                guard result.status == 0 else { throw ShellError(message: result.stderr) }
                return result.stdout
            }
            : { try cacheServer.get().psql($0) }
        return (Warm(store: store, setup: setup, owner: owner, kind: kind, shell: shell), folder, library)
    }

    /// Writes as another program would make them, in each store's dialect.
    static let writes: [(name: String, sqlite: String, postgres: String)] = [
        ("insert a completion",
         "INSERT INTO completions (owner, id, habit_id, completed_on, recorded_at, amount_thousandths) VALUES (OWNER, 'E0000000-0000-4000-8000-000000000001', HABIT(read), '2026-10-19', 0, 1000)",
         "INSERT INTO completions (user_id, id, habit_id, completed_on, recorded_at, amount_thousandths) VALUES (OWNER, gen_random_uuid(), HABIT(read), '2026-10-19', 0, 1000)"),
        ("move a completion to another day",
         "UPDATE completions SET completed_on = '2026-10-19' WHERE owner = OWNER AND habit_id = HABIT(read) AND completed_on = '2026-10-12'",
         "UPDATE completions SET completed_on = '2026-10-19' WHERE user_id = OWNER AND habit_id = HABIT(read) AND completed_on = '2026-10-12'"),
        ("change an amount",
         "UPDATE completions SET amount_thousandths = 1 WHERE owner = OWNER AND habit_id = HABIT(gym)",
         "UPDATE completions SET amount_thousandths = 1 WHERE user_id = OWNER AND habit_id = HABIT(gym)"),
        ("delete completions",
         "DELETE FROM completions WHERE owner = OWNER AND completed_on IN ('2026-10-18', '2026-10-02')",
         "DELETE FROM completions WHERE user_id = OWNER AND completed_on IN ('2026-10-18', '2026-10-02')"),
        ("insert a skip",
         "INSERT INTO skips (owner, id, habit_id, day, recorded_at) VALUES (OWNER, 'E0000000-0000-4000-8000-000000000002', HABIT(read), '2026-10-19', 0)",
         "INSERT INTO skips (user_id, id, habit_id, day, recorded_at) VALUES (OWNER, gen_random_uuid(), HABIT(read), '2026-10-19', 0)"),
        ("add a revision",
         """
         INSERT INTO habit_revisions SELECT owner, habit_id, 2, '2026-10-01', 3000, schedule_policy, schedule_params, schedule_sha256,
             progress_policy, progress_params, progress_sha256, streak_policy, streak_params, streak_sha256, created_at, reminders, NULL
         FROM habit_revisions WHERE owner = OWNER AND habit_id = HABIT(read) AND number = 1
         """,
         """
         INSERT INTO habit_revisions SELECT user_id, habit_id, 2, '2026-10-01', 3000, schedule_policy, schedule_params, schedule_sha256,
             progress_policy, progress_params, progress_sha256, streak_policy, streak_params, streak_sha256, created_at, reminders, NULL
         FROM habit_revisions WHERE user_id = OWNER AND habit_id = HABIT(read) AND number = 1
         """),
        ("move a habit's start",
         "UPDATE habits SET started_on = '2026-10-01' WHERE owner = OWNER AND name = 'gym'",
         "UPDATE habits SET started_on = '2026-10-01' WHERE user_id = OWNER AND name = 'gym'"),
        ("archive a habit",
         "UPDATE habits SET archived_on = '2026-10-15' WHERE owner = OWNER AND name = 'read'",
         "UPDATE habits SET archived_on = '2026-10-15' WHERE user_id = OWNER AND name = 'read'"),
        ("put other text under a script's hash",
         """
         CREATE TEMP TABLE kept AS SELECT * FROM policy_scripts WHERE owner = OWNER AND name = 'grace';
         DELETE FROM policy_scripts WHERE owner = OWNER AND name = 'grace';
         INSERT INTO policy_scripts SELECT owner, sha256, name, source || ' ', installed_at, installed FROM kept;
         """,
         """
         CREATE TEMP TABLE kept AS SELECT * FROM policy_scripts WHERE user_id = OWNER AND name = 'grace';
         DELETE FROM policy_scripts WHERE user_id = OWNER AND name = 'grace';
         INSERT INTO policy_scripts SELECT user_id, sha256, name, source || ' ', installed_at, installed FROM kept;
         """),
    ]

    @Test("a write made outside StackDay is seen by the next cached read", arguments: ["sqlite", "postgres"], 0..<writes.count)
    func outsideWrite(kind: String, index: Int) throws {
        let write = Self.writes[index]
        let (warm, folder, library) = try warm(kind)
        defer { withExtendedLifetime(folder) {} }
        let before = try base.figures(base.context(warm.store, library, today: warm.setup.today, cached: false))
        #expect(try base.figures(warm.setup) == before, "warm")
        _ = try warm.run(kind == "sqlite" ? write.sqlite : write.postgres)
        // A new process: a library that has compiled no stored script yet.
        let fresh = try PolicyLibrary(searchPath: [])
        let expected = try base.figures(base.context(warm.store, fresh, today: warm.setup.today, cached: false))
        #expect(Bool(expected != before), "\(write.name) changes a figure")
        let reader = base.context(warm.store, try PolicyLibrary(searchPath: []), today: warm.setup.today, cached: true)
        let cached = try base.figures(reader)
        #expect(Bool(cached == expected), "\(kind), \(write.name): \(EvaluationCacheTests.difference(cached, expected))")
        #expect(Bool(try base.figures(reader) == expected), "\(kind), \(write.name), read again")
    }

    @Test("a cache row copied onto another habit is not served as that habit's", arguments: ["sqlite", "postgres"])
    func copiedRow(kind: String) throws {
        let (warm, folder, library) = try warm(kind)
        defer { withExtendedLifetime(folder) {} }
        let expected = try base.figures(base.context(warm.store, library, today: warm.setup.today, cached: false))
        #expect(Bool(try base.figures(warm.setup) == expected))
        _ = try warm.run("""
            UPDATE evaluation_cache SET (format, evaluator, first_day, valid_through, spans, days, checksum, summary_as_of, summary) =
                (SELECT format, evaluator, first_day, valid_through, spans, days, checksum, summary_as_of, summary
                 FROM evaluation_cache WHERE OWNER_COLUMN = OWNER AND habit_id = HABIT(read))
            WHERE OWNER_COLUMN = OWNER AND habit_id = HABIT(gym)
            """)
        #expect(try warm.run("SELECT count(DISTINCT checksum) FROM evaluation_cache WHERE OWNER_COLUMN = OWNER").trimmingCharacters(in: .whitespacesAndNewlines) == "1")
        let cached = try base.figures(warm.setup)
        #expect(Bool(cached == expected), "\(EvaluationCacheTests.difference(cached, expected))")
    }

    @Test("a read a year ahead computes the days after today and stores none of them", arguments: ["sqlite", "postgres"])
    func readAhead(kind: String) throws {
        let (warm, folder, _) = try warm(kind)
        defer { withExtendedLifetime(folder) {} }
        let today = warm.setup.today
        let ahead = today.adding(days: ReadWindow.daysAhead)
        let timeline = try LoadTimeline(context: warm.setup)(habitName: "read", through: ahead)
        #expect(timeline.entries.last?.day == ahead)
        _ = try BuildWeeklyReport(context: warm.setup)(weekOf: ahead)
        let stored = try warm.run("SELECT max(valid_through) || ' ' || max(length(days)) FROM evaluation_cache WHERE OWNER_COLUMN = OWNER")
        #expect(stored.trimmingCharacters(in: .whitespacesAndNewlines) == "\(today.iso) \(41 * 17)")
    }

    @Test("a habit moved, renamed or recoloured keeps its cached figures and moves its counter on; a new unit clears them",
          arguments: ["sqlite", "postgres"])
    func habitRowUpdate(kind: String) throws {
        let (warm, folder, library) = try warm(kind)
        defer { withExtendedLifetime(folder) {} }
        let figures = try base.figures(base.context(warm.store, library, today: warm.setup.today, cached: false))
        #expect(Bool(try base.figures(warm.setup) == figures), "warm")
        func state() throws -> (kept: [String], generations: [String]) {
            let kept = try warm.run("SELECT h.name FROM habits AS h JOIN evaluation_cache AS c ON c.OWNER_COLUMN = h.OWNER_COLUMN AND c.habit_id = h.id "
                                    + "WHERE h.OWNER_COLUMN = OWNER AND c.summary_as_of IS NOT NULL ORDER BY h.name")
            let generations = try warm.run("SELECT h.name || '=' || g.generation FROM habits AS h JOIN habit_generations AS g "
                                           + "ON g.OWNER_COLUMN = h.OWNER_COLUMN AND g.habit_id = h.id WHERE h.OWNER_COLUMN = OWNER ORDER BY h.name")
            return (kept.split(separator: "\n").map(String.init), generations.split(separator: "\n").map(String.init))
        }
        let before = try state()
        #expect(before.kept == ["gym", "read"])
        // As a person does it: gym moved to the top, renamed, given a colour.
        try MoveHabit(context: warm.setup)(.name("gym"), to: .at(1))
        var changes = HabitChanges()
        changes.name = "gym twice"
        changes.colorTag = .some(.teal)
        _ = try EditHabit(context: warm.setup)(habitName: "gym", changes: changes)
        let after = try state()
        #expect(after.kept == ["gym twice", "read"], "\(kind): figures cleared by a move or a rename")
        #expect(after.generations != before.generations.map { $0.replacingOccurrences(of: "gym=", with: "gym twice=") },
                "\(kind): the counters did not move")
        let scratch = try base.figures(base.context(warm.store, try PolicyLibrary(searchPath: []), today: warm.setup.today, cached: false))
        #expect(Bool(try base.figures(warm.setup) == scratch), "\(kind): the kept figures are the habit's")
        // What its policies are given: its unit (as another program would write it).
        _ = try warm.run("UPDATE habits SET unit = 'sets' WHERE OWNER_COLUMN = OWNER AND name = 'gym twice'")
        #expect(try state().kept == ["read"], "\(kind): a new unit left the figures")
    }

    /// New records of `habit` from another device, on the days of the last 40 it has none (one a
    /// day), stamped as one push; with `amount` 0 the last breaks the table's check.
    func pushed(_ warm: Warm, habit: String, last amount: Int64 = 1000) throws -> [SyncChange] {
        let id = try #require(try warm.store.read { try $0.habits.habit(named: habit) }).id.uuidString
        let stamp = SyncStamp(hlc: SyncStamp.time(at: Date()), device: UUID().uuidString.lowercased())
        let days = (0...40).filter { $0 % 4 == 1 }.map { warm.setup.today.adding(days: -$0) }
        return days.enumerated().map { index, day in
            let record = SyncRecord(id: UUID().uuidString, habit: id, day: day, recordedAt: 0, amountThousandths: index == days.count - 1 ? amount : 1000)
            return SyncChange(.record(record), stamp: stamp)
        }
    }

    @Test("records a sync inserts together touch each habit's cache once, after them; the row triggers stay on", arguments: ["sqlite", "postgres"])
    func syncedRecords(kind: String) throws {
        let (warm, folder, library) = try warm(kind)
        defer { withExtendedLifetime(folder) {} }
        let before = try base.figures(base.context(warm.store, library, today: warm.setup.today, cached: false))
        #expect(Bool(try base.figures(warm.setup) == before), "warm")
        // A push whose last record breaks the table's check is refused whole, and the cache is untouched.
        let refused = try pushed(warm, habit: "read", last: 0)
        #expect(throws: (any Error).self) { try warm.store.write { tx in _ = try tx.sync?.apply(refused, as: .server) } }
        #expect(Bool(try base.figures(warm.setup) == before), "a refused push changes nothing")
        let changes = try pushed(warm, habit: "read")
        let outcomes = try warm.store.write { tx in try tx.sync?.apply(changes, as: .server) }
        #expect(outcomes == changes.map { _ in .applied })
        let expected = try base.figures(base.context(warm.store, try PolicyLibrary(searchPath: []), today: warm.setup.today, cached: false))
        #expect(Bool(expected != before), "the records change a figure")
        let cached = try base.figures(base.context(warm.store, try PolicyLibrary(searchPath: []), today: warm.setup.today, cached: true))
        #expect(Bool(cached == expected), "\(kind): \(EvaluationCacheTests.difference(cached, expected))")
        if kind == "sqlite" { #expect(try warm.run("SELECT count(*) FROM cache_deferred").trimmingCharacters(in: .whitespacesAndNewlines) == "0") }
        // A write from outside afterwards is still seen by its row trigger.
        _ = try warm.run(kind == "sqlite" ? Self.writes[0].sqlite : Self.writes[0].postgres)
        let after = try base.figures(base.context(warm.store, try PolicyLibrary(searchPath: []), today: warm.setup.today, cached: false))
        #expect(Bool(after != expected))
        #expect(Bool(try base.figures(warm.setup) == after), "\(kind): a later write from outside is seen")
    }

    @Test("an import into SQLite sets its row triggers aside for the bulk insert and has them back after; a refused one writes nothing")
    func importKeepsTrigger() throws {
        let (warm, folder, library) = try warm("sqlite")
        let archive = try ExportArchive(context: warm.setup)()
        let path = folder.path("imported.sqlite")
        let store = try SQLiteHabitStore(path: path)
        let context = base.context(store, library, today: warm.setup.today, cached: true)
        let trigger = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = 'completions_cache_insert'"
        // Refused: a record of a habit the archive does not hold, beside every good one.
        var broken = archive
        broken.completions += [try Completion(id: UUID(), habitID: UUID(), completedOn: warm.setup.today, recordedAt: Date(timeIntervalSince1970: 0), amount: 1)]
        let setAside = "SELECT (SELECT count(*) FROM cache_deferred) + (SELECT count(*) FROM sync_deferred)"
        #expect(throws: (any Error).self) { try ImportArchive(context: context)(broken) }
        #expect(SQLiteShell.run(path, trigger) == ["1"])
        #expect(SQLiteShell.run(path, setAside) == ["0"])
        #expect(SQLiteShell.run(path, "SELECT count(*) FROM completions") == ["0"])
        try ImportArchive(context: context)(archive)
        #expect(SQLiteShell.run(path, trigger) == ["1"])
        #expect(SQLiteShell.run(path, setAside) == ["0"])
        let expected = try base.figures(base.context(store, library, today: warm.setup.today, cached: false))
        #expect(Bool(try base.figures(context) == expected), "the import invalidated what it wrote")
        _ = SQLiteShell.run(path, "INSERT INTO completions SELECT owner, 'E0000000-0000-4000-8000-00000000000A', id, '2026-10-19', 0, 1000, NULL FROM habits WHERE name = 'read'")
        let after = try base.figures(base.context(store, try PolicyLibrary(searchPath: []), today: warm.setup.today, cached: false))
        #expect(Bool(after != expected))
        #expect(Bool(try base.figures(context) == after), "a later write from outside is seen")
    }
}
