import CSQLite
import Foundation
import Testing
import StackDay
import StackDaySQLite
import StackDayTestSupport

@Suite("SQLite store")
struct SQLiteStoreTests {
    let folder: TemporaryFolder
    init() throws { folder = try TemporaryFolder() }

    func context(_ store: SQLiteHabitStore) -> HabitContext {
        HabitContext(store: store, clock: FixedClock(SampleData.now), boundary: DayBoundary(timeZone: SampleData.timeZone))
    }

    func sqlite(_ path: String, _ sql: String) -> [String] { SQLiteShell.run(path, sql) }

    /// A file the release before rule revisions wrote (schema 3), kept with the command-line tests.
    static let schema3Fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../StackdayCLITests/Fixtures/schema3.sqlite").standardizedFileURL.path

    @Test("a write whose request was given up (CommitGate) rolls back: nothing is stored; the next one commits")
    func commitGate() throws {
        let store = try SQLiteHabitStore(path: folder.path("gate.sqlite"))
        let context = context(store)
        let start = try LocalDay(year: 2026, month: 10, day: 1)
        #expect(throws: CommitRefused.self) {
            try CommitGate.withClaim({ false }) { try CreateHabit(context: context)(name: "given-up", startedOn: start) }
        }
        #expect(try store.read { try $0.habits.all() }.isEmpty)
        let asked = Counter()
        _ = try CommitGate.withClaim({ asked.add(); return true }) { try CreateHabit(context: context)(name: "kept", startedOn: start) }
        #expect(try store.read { try $0.habits.all() }.map(\.name) == ["kept"])
        #expect(asked.value == 1, "the gate is asked once, by the outermost transaction")
    }

    @Test("a new file uses WAL, records its migrations and the StackDay application id")
    func setup() throws {
        let path = folder.path("nested/folder/stackday.sqlite")
        let store = try SQLiteHabitStore(path: path)
        #expect(try store.journalMode() == "wal")
        #expect(sqlite(path, "SELECT id FROM schema_migrations ORDER BY id") == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "28", "29", "30", "31", "32", "33", "34", "35", "36", "37"])
        // Daily totals are read from the index alone.
        let plan = sqlite(path, "EXPLAIN QUERY PLAN SELECT completed_on, sum(amount_thousandths) FROM completions WHERE owner = 'default' AND habit_id = 'x' AND completed_on BETWEEN '2026-01-01' AND '2026-12-31' GROUP BY completed_on")
        #expect(plan.joined().contains("COVERING INDEX completions_by_habit_day"))
        #expect(sqlite(path, "PRAGMA application_id") == ["\(0x5354_4B44)"])
        // Reopening applies nothing twice.
        _ = try SQLiteHabitStore(path: path)
        #expect(sqlite(path, "SELECT count(*) FROM schema_migrations") == ["37"])
    }

    @Test("a habit is found by name through an index; a file from before the index gets its keys")
    func nameIndex() throws {
        let path = folder.path("names.sqlite")
        let store = try SQLiteHabitStore(path: path)
        let context = context(store)
        try CreateHabit(context: context)(name: "Ünïcode Wäter", startedOn: SampleData.firstDay)
        try CreateHabit(context: context)(name: "독서", startedOn: SampleData.firstDay)
        let plan = sqlite(path, "EXPLAIN QUERY PLAN SELECT id FROM habits WHERE owner = 'default' AND name_key = 'x'")
        #expect(plan.joined().contains("INDEX habits_by_name_key"), "\(plan)")
        #expect(sqlite(path, "SELECT name_key FROM habits ORDER BY seq") == ["ünïcode wäter", "독서"])
        // A file written at schema 3, taken back to what migration 2 left: no key column, no index.
        let old = folder.path("schema2.sqlite")
        try FileManager.default.copyItem(atPath: Self.schema3Fixture, toPath: old)
        for statement in ["DROP INDEX habits_by_name_key", "ALTER TABLE habits DROP COLUMN name_key",
                          "UPDATE habits SET name = 'Ünïcode Wäter' WHERE name = 'water'", "DELETE FROM schema_migrations WHERE id >= 3"] {
            #expect(sqlite(old, statement) == [], "\(statement)")
        }
        let reopened = try SQLiteHabitStore(path: old)
        #expect(sqlite(old, "SELECT name_key FROM habits ORDER BY seq") == ["ünïcode wäter", "gym", "stretch", "독서"])
        let found = try FindHabit(context: self.context(reopened))(named: "  ÜNÏCODE wäter ")
        #expect(found.name == "Ünïcode Wäter")
        #expect(throws: UseCaseError.duplicateName(name: "Ünïcode Wäter")) {
            try RenameHabit(context: self.context(reopened))(habitName: "독서", to: "ünïcode WÄTER")
        }
    }

    @Test("seed 000's sample through SQLite prints the same report")
    func sampleReport() throws {
        let context = context(try SQLiteHabitStore(path: folder.path("sample.sqlite")))
        try SampleData.load(into: context)
        let text = WeeklyReportFormatter(language: .korean).format(try BuildWeeklyReport(context: context)())
        #expect(text.contains("물 마시기 | ● ● ● ● ● ● ○ | 합계 54잔 | 달성 6/7일 | 연속 7일 (최장 7일)"))
        #expect(text.contains("운동 | ○ ● ● ○ ● ● ● | 합계 165분 | 달성 5/7일 | 연속 3일 (최장 3일)"))
    }

    @Test("0.1 + 0.2 cups total exactly 0.3, stored as integer thousandths")
    func exactAmounts() throws {
        let path = folder.path("exact.sqlite")
        let context = context(try SQLiteHabitStore(path: path))
        try CreateHabit(context: context)(name: "tea", startedOn: SampleData.firstDay, goal: 0.3, unit: "l")
        try RecordCompletion(context: context)(habitName: "tea", amount: 0.1, on: SampleData.firstDay)
        try RecordCompletion(context: context)(habitName: "tea", amount: 0.2, on: SampleData.firstDay)
        let timeline = try LoadTimeline(context: context)(habitName: "tea")
        #expect(timeline.entries[0].total == 0.3)
        #expect(timeline.entries[0].state == .completed)
        #expect(sqlite(path, "SELECT sum(amount_thousandths) FROM completions") == ["300"])
    }

    @Test("a text file is refused and left byte for byte as it was")
    func textFile() throws {
        let path = folder.path("notes.txt")
        let original = String(repeating: "these are my notes, not a database\n", count: 50)
        try original.write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: StoreError.notADatabase(path: path)) { try SQLiteHabitStore(path: path) }
        #expect(try String(contentsOfFile: path, encoding: .utf8) == original)
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    @Test("another application's SQLite file is refused untouched")
    func foreignDatabase() throws {
        let path = folder.path("other.sqlite")
        _ = sqlite(path, "CREATE TABLE contacts (name TEXT)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.foreignDatabase(path: path)) { try SQLiteHabitStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
        #expect(sqlite(path, "PRAGMA journal_mode") == ["delete"])
    }

    @Test("scripts and revisions are guarded in the file too: a revision is never rewritten, a tampered script is refused on read")
    func guardedRules() throws {
        let path = folder.path("rules.sqlite")
        let store = try SQLiteHabitStore(path: path)
        let script = PolicyScript(name: "grace", source: "return { streak = function(s) return s end }", installedAt: SampleData.now)
        let habit = try store.write { tx in
            try tx.scripts.insert(script)
            let habit = try Habit(name: "read", startedOn: SampleData.firstDay, createdAt: SampleData.now, streak: PolicyChoice(name: "grace", sha256: script.sha256))
            try tx.habits.insert(habit)
            return habit
        }
        #expect(sqlite(path, "UPDATE habit_revisions SET goal_thousandths = 2000") == ["rule revisions are append-only"])
        #expect(sqlite(path, "UPDATE habit_revisions SET streak_sha256 = NULL") == ["rule revisions are append-only"])
        #expect(sqlite(path, "UPDATE policy_scripts SET source = 'return {}'") == ["policy scripts are immutable"])
        #expect(try store.read { try $0.habits.habit(id: habit.id) } == habit)
        // Edited by hand past the trigger: the hash no longer matches and the script is refused.
        #expect(sqlite(path, "DROP TRIGGER policy_scripts_immutable") == [])
        #expect(sqlite(path, "UPDATE policy_scripts SET source = 'return {}'") == [])
        #expect(throws: PolicyScriptError.tampered(name: "grace", stored: script.sha256, actual: SHA256(of: "return {}").description)) {
            try store.read { try $0.scripts.script(sha256: script.sha256) }
        }
        let message = PolicyScriptError.tampered(name: "grace", stored: script.sha256, actual: SHA256(of: "return {}").description).description
        #expect(message.hasPrefix("stored script grace@\(script.shortHash) was altered"))
    }

    @Test("a file written by a newer schema is refused untouched")
    func newerSchema() throws {
        let path = folder.path("newer.sqlite")
        _ = try SQLiteHabitStore(path: path)
        let known = try #require(Int(sqlite(path, "SELECT max(id) FROM schema_migrations").first ?? ""))
        _ = sqlite(path, "INSERT INTO schema_migrations (id, name, applied_at) VALUES (99, 'from the future', 0)")
        _ = sqlite(path, "PRAGMA wal_checkpoint(TRUNCATE)")
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(throws: StoreError.newerSchema(path: path, version: 99, supported: known)) { try SQLiteHabitStore(path: path) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    @Test("a read-only file opens for reading and fails clearly on the first write")
    func readOnly() throws {
        guard getuid() != 0 else {
            // root ignores file permissions; open the file through SQLite's read-only URI instead.
            let path = folder.path("ro.sqlite")
            let store = try SQLiteHabitStore(path: path)
            try CreateHabit(context: context(store))(name: "read", startedOn: SampleData.firstDay)
            let readOnly = try SQLiteHabitStore(path: "file:\(path)?mode=ro")
            #expect(try readOnly.read { tx in try tx.habits.all().map(\.name) } == ["read"])
            #expect(throws: StoreError.readOnly(path: "file:\(path)?mode=ro")) {
                try CreateHabit(context: context(readOnly))(name: "write", startedOn: SampleData.firstDay)
            }
            return
        }
        let path = folder.path("ro.sqlite")
        let store = try SQLiteHabitStore(path: path)
        try CreateHabit(context: context(store))(name: "read", startedOn: SampleData.firstDay)
        try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
        let readOnly = try SQLiteHabitStore(path: path)
        #expect(throws: StoreError.readOnly(path: path)) { try CreateHabit(context: context(readOnly))(name: "write", startedOn: SampleData.firstDay) }
    }

    @Test("a failing use case writes nothing")
    func rollback() throws {
        let path = folder.path("rollback.sqlite")
        let context = context(try SQLiteHabitStore(path: path))
        try CreateHabit(context: context)(name: "read", startedOn: SampleData.firstDay)
        #expect(throws: UseCaseError.self) {
            try SkipDays(context: context)(habitName: "read", days: LocalDayRange(SampleData.firstDay, SampleData.firstDay.adding(days: 40)))
        }
        #expect(sqlite(path, "SELECT count(*) FROM skips") == ["0"])
    }

    @Test("DatabaseError carries the code, message and SQL")
    func databaseError() {
        let error = DatabaseError(extendedCode: 2067, message: "UNIQUE constraint failed: habits.id", sql: "INSERT INTO habits (id) VALUES (?)")
        #expect(error.code == SQLITE_CONSTRAINT)
        #expect(error.description == "UNIQUE constraint failed: habits.id (SQLITE_CONSTRAINT, extended code 2067) in: INSERT INTO habits (id) VALUES (?)")
    }

    @Test("the default location follows STACKDAY_DB, then XDG_DATA_HOME, then HOME")
    func defaultLocation() {
        #expect(StoreLocation.defaultPath(environment: ["STACKDAY_DB": "/tmp/x.sqlite", "HOME": "/home/a"]) == "/tmp/x.sqlite")
        #expect(StoreLocation.defaultPath(environment: ["XDG_DATA_HOME": "/data", "HOME": "/home/a"]) == "/data/stackday/stackday.sqlite")
        #expect(StoreLocation.defaultPath(environment: ["HOME": "/home/a"]) == "/home/a/.local/share/stackday/stackday.sqlite")
    }
}

@Suite("SQLite store across processes", .serialized)
struct SQLiteProcessTests {
    let exerciser = Subprocess(product: "StoreExerciser")

    @Test("4 processes recording 1000 completions each leave exactly 4000 rows and no lock errors")
    func concurrentWriters() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("concurrent.sqlite")
        #expect(try exerciser.run(["setup", path]).status == 0)
        let results = try (0..<4).map { _ in try startCapturing(["record", path, "1000"]) }.map { $0() }
        for result in results {
            #expect(result.status == 0)
            #expect(!result.stderr.contains("locked"))
        }
        let store = try SQLiteHabitStore(path: path)
        let count = try store.read { tx in
            try tx.habits.habit(named: "water").map { try tx.completions.completions(habitID: $0.id).count }
        }
        #expect(count == 4000)
    }

    @Test("kill -9 in the middle of a large import leaves a sound file; re-running completes it exactly")
    func killedImport() throws {
        let folder = try TemporaryFolder()
        let path = folder.path("import.sqlite")
        let total = 60_000
        #expect(try exerciser.run(["setup", path]).status == 0)
        let process = try exerciser.start(["import", path, String(total)])
        let store = try SQLiteHabitStore(path: path)
        let habit = try #require(try store.read { tx in try tx.habits.habit(named: "water") })
        func stored() throws -> Int { try store.read { tx in try tx.completions.completions(habitID: habit.id).count } }
        // Wait until some batches are committed, then kill without warning.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, process.isRunning, try stored() < 10_000 {
            usleep(20_000)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(try store.integrityCheck() == "ok")
        let partial = try stored()
        #expect(partial > 0 && partial < total && partial % 2_000 == 0)

        let rerun = try exerciser.run(["import", path, String(total)])
        #expect(rerun.status == 0)
        #expect(rerun.stdout == "inserted \(total - partial), already present \(partial)\n")
        #expect(try stored() == total)
        let again = try exerciser.run(["import", path, String(total)])
        #expect(again.stdout == "inserted 0, already present \(total)\n")
        #expect(try store.integrityCheck() == "ok")
    }

    /// Starts the exerciser and returns a function that waits for its result.
    func startCapturing(_ arguments: [String]) throws -> () -> Subprocess.Result {
        let box = ResultBox()
        let group = DispatchGroup()
        let exerciser = self.exerciser
        DispatchQueue.global().async(group: group) { box.result = try? exerciser.run(arguments) }
        return {
            group.wait()
            return box.result ?? Subprocess.Result(status: -1, stdout: "", stderr: "did not start")
        }
    }
}

/// `@unchecked Sendable`: `result` is written once on a background queue and read only after the
/// group's wait, which orders the write before the read.
private final class ResultBox: @unchecked Sendable {
    var result: Subprocess.Result?
}

/// A count a `@Sendable` closure can add to. `@unchecked Sendable`: guarded by its lock.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.lock(); count += 1; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}
