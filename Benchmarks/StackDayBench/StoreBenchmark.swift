import Foundation
import StackDay
import StackDayLua
import StackDaySQLite

/// P3, the growth rows, P4 and P5: the command line on SQLite against the `sqlite3` CLI.
struct StoreBenchmark {
    let context: BenchContext

    static let end = (try? LocalDay(year: 2026, month: 10, day: 11)) ?? .earliest
    static var now: String { "\(end.iso)T12:00:00Z" }

    /// A database of `habits` daily habits with one completion on every day of the last `days` days.
    func makeDatabase(_ name: String, habits: Int, days: Int) throws -> String {
        let path = context.path(name)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let store = try SQLiteHabitStore(path: path)
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(Self.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        let habitContext = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: utc))
        try ImportArchive(context: habitContext)(try Self.sampleArchive(habits: habits, days: days, createdAt: clock.now))
        return path
    }

    /// `habits` daily habits (goal 2) with a completion of 2 on 9 days in 10 of the last `days`.
    static func sampleArchive(habits: Int, days: Int, createdAt: Date) throws -> HabitArchive {
        let first = end.adding(days: 1 - days)
        var archive = HabitArchive()
        for index in 0..<habits {
            let habit = try Habit(name: "habit \(index)", startedOn: first, createdAt: createdAt, goal: 2)
            archive.habits.append(habit)
            for offset in 0..<days where (offset * 7 + index) % 10 != 0 {
                let day = first.adding(days: offset)
                archive.completions.append(try Completion(habitID: habit.id, completedOn: day, recordedAt: day.midnightUTC, amount: 2))
            }
        }
        return archive
    }

    func stackday(_ arguments: [String], db: String) -> [String] {
        arguments + ["--db", db, "--now", Self.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
    }

    struct Growth {
        let years: Int
        let rows: Int
        /// `stats --json` on a warm cache.
        let engine: Measure.ProcessRun
        /// `stats --json --no-cache`.
        let cold: Double
        /// `today` on a warm cache.
        let today: Double
        let peakBytes: Int
        let baseline: Double
    }

    /// Runs one command that pins the habits' rules (the database was written without the
    /// command line) and fills the evaluation cache.
    func warm(_ db: String) throws {
        guard try Measure.run(context.stackday, stackday(["stats", "--json"], db: db)).status == 0 else { throw BenchError("warming \(db) failed") }
    }

    func stats(years: Int) throws -> Growth {
        let habits = context.quick ? 5 : 100
        let days = years * 365 + years / 4
        let db = try makeDatabase("stats-\(years)y.sqlite", habits: habits, days: days)
        try warm(db)
        let engine = try Measure.bestRun(5, context.stackday, stackday(["stats", "--json"], db: db))
        let answer = try? JSONSerialization.jsonObject(with: Data(engine.stdout.utf8)) as? [String: Any]
        guard (answer?["habits"] as? [Any])?.count == habits else { throw BenchError("P3: unexpected stats output") }
        let cold = try Measure.bestRun(3, context.stackday, stackday(["--no-cache", "stats", "--json"], db: db))
        guard cold.stdout == engine.stdout else { throw BenchError("P3: stats with and without the cache differ") }
        let today = try Measure.bestRun(5, context.stackday, stackday(["today"], db: db))
        let baseline = try Measure.bestRun(5, "sqlite3", [db, "SELECT habit_id, count(*), sum(amount_thousandths) FROM completions GROUP BY habit_id"])
        let rows = Int(try Measure.run("sqlite3", [db, "SELECT count(*) FROM completions"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let peak = try Measure.peakMemory(context.stackday, stackday(["stats", "--json"], db: db))
        return Growth(years: years, rows: rows, engine: engine, cold: cold.seconds, today: today.seconds, peakBytes: peak, baseline: baseline.seconds)
    }

    func run(skipImport: Bool = false) throws -> (figures: [Figure], growth: [Growth]) {
        guard BenchContext.has("sqlite3") else { return ([], []) }
        var figures: [Figure] = []
        let growth = try (context.quick ? [1] : [1, 5, 20]).map { try stats(years: $0) }
        if let p3 = growth.first(where: { $0.years == 5 }) ?? growth.first {
            let ratio = p3.engine.seconds / p3.baseline
            figures.append(Figure(id: "P3", compared: "stackday stats --json, warm cache, \(p3.rows) completions (\(p3.years)y) ÷ sqlite3 reading and summing them",
                                  engine: Table.seconds(p3.engine.seconds), baseline: Table.seconds(p3.baseline), ratio: ratio, target: "≤ 2×", met: ratio <= 2))
            figures.append(Figure(id: "P3c", compared: "the same with --no-cache (every policy run over the whole history)",
                                  engine: Table.seconds(p3.cold), baseline: Table.seconds(p3.baseline), ratio: p3.cold / p3.baseline,
                                  target: "reported", met: nil))
        }
        if !skipImport {
            figures.append(try importFigure())
            figures += try importMemoryFigures()
            figures.append(try loopImportFigure())
        }
        figures += try todayFigures()
        return (figures, growth)
    }

    func importFigure() throws -> Figure {
        let habits = context.quick ? 10 : 200
        let days = context.quick ? 100 : 5000
        let first = Self.end.adding(days: -days - 10)
        var engineCSV = "kind,id,habit,name,day,archived_on,recorded_at,updated_at,amount,unit,schedule,schedule_params,progress,progress_params,streak,streak_params\n"
        var plainCSV = "owner,id,habit_id,completed_on,recorded_at,amount_thousandths\n"
        engineCSV.reserveCapacity(habits * days * 130)
        plainCSV.reserveCapacity(habits * days * 100)
        var generator = SplitMix(seed: 7)
        func uuid() -> String {
            let a = generator.next(), b = generator.next()
            let hex = String(a, radix: 16).leftPadded(16) + String(b, radix: 16).leftPadded(16)
            let chars = Array(hex)
            return "\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-a\(String(chars[17..<20]))-\(String(chars[20..<32]))".uppercased()
        }
        var habitIDs: [String] = []
        for index in 0..<habits {
            let id = uuid()
            habitIDs.append(id)
            engineCSV += "habit,\(id),,habit \(index),\(first.iso),,2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,1,,daily,{},goal,{},strict,{}\n"
        }
        for index in 0..<habits {
            for offset in 0..<days {
                let id = uuid()
                let day = first.adding(days: offset).iso
                engineCSV += "completion,\(id),\(habitIDs[index]),,\(day),,\(day)T08:00:00.000Z,,1,,,,,,,\n"
                plainCSV += "default,\(id),\(habitIDs[index]),\(day),\(Double(first.adding(days: offset).ordinal * 24 * 60 * 60 + 8 * 60 * 60)),1000\n"
            }
        }
        let engineFile = try context.write("import.csv", engineCSV)
        _ = try context.write("import-plain.csv", plainCSV)
        let (engineBest, baselineBest) = try importTimes(
            "P4", source: engineFile, records: habits + habits * days, plain: { _ in context.path("import-plain.csv") }
        )
        let ratio = engineBest / baselineBest
        return Figure(id: "P4", compared: "stackday import of \(habits * days) completions ÷ sqlite3 .import into an indexed table",
                      engine: Table.seconds(engineBest), baseline: Table.seconds(baselineBest), ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5)
    }

    /// P4m and P4j: the peak resident memory of `stackday import` of P4's 1,000,000 completions,
    /// as CSV and as our JSON export of the same store, each into a fresh database, beside
    /// `sqlite3 .import` of the plain rows; P4x that export's own. The target is the absolute
    /// 200 MiB. P4j's time is compared with P4's baseline too.
    func importMemoryFigures() throws -> [Figure] {
        let csv = context.path("import.csv"), plain = context.path("import-plain.csv")
        let records = (context.quick ? 10 : 200) * (1 + (context.quick ? 100 : 5000))
        let schema = context.path("schema.sql")
        let baselinePeak = try Measure.peakMemory("sqlite3", [context.path("P4m-plain.sqlite"), ".read \(schema)", ".import --csv --skip 1 \(plain) completions"])
        let csvPeak = try Measure.peakMemory(context.stackday, stackday(["import", csv], db: context.path("P4m.sqlite")))
        let json = context.path("import.json")
        // `peakMemory` fails unless the export exits 0.
        let exportPeak = try Measure.peakMemory(context.stackday, stackday(["export", "--out", json], db: context.path("P4m.sqlite")))
        let jsonPeak = try Measure.peakMemory(context.stackday, stackday(["import", json], db: context.path("P4j.sqlite")))
        let jsonRun = try Measure.run(context.stackday, stackday(["import", json], db: context.path("P4j-timed.sqlite")))
        guard jsonRun.status == 0, jsonRun.stdout.contains("Imported \(records) records") else { throw BenchError("P4j: import failed: \(jsonRun.stdout)") }
        let baseline = try Measure.run("sqlite3", [context.path("P4j-plain.sqlite"), ".read \(schema)", ".import --csv --skip 1 \(plain) completions"])
        let limit = 200 * 1_048_576
        func mebibytes(_ bytes: Int) -> String { "\(bytes / 1_048_576) MiB" }
        return [
            Figure(id: "P4m", compared: "peak memory of stackday import of P4's CSV ÷ sqlite3 .import's", engine: mebibytes(csvPeak),
                   baseline: mebibytes(baselinePeak), ratio: Double(csvPeak) / Double(baselinePeak), target: "< 200 MiB", met: csvPeak < limit),
            Figure(id: "P4j", compared: "peak memory of stackday import of the same records as a JSON export ÷ sqlite3 .import's", engine: mebibytes(jsonPeak),
                   baseline: mebibytes(baselinePeak), ratio: Double(jsonPeak) / Double(baselinePeak), target: "< 200 MiB", met: jsonPeak < limit),
            Figure(id: "P4x", compared: "peak memory of stackday export of those records as JSON ÷ sqlite3 .import's", engine: mebibytes(exportPeak),
                   baseline: mebibytes(baselinePeak), ratio: Double(exportPeak) / Double(baselinePeak), target: "< 200 MiB", met: exportPeak < limit),
            Figure(id: "P4jt", compared: "stackday import of that JSON export ÷ sqlite3 .import of the plain rows", engine: Table.seconds(jsonRun.seconds),
                   baseline: Table.seconds(baseline.seconds), ratio: jsonRun.seconds / baseline.seconds, target: "reported", met: nil),
        ]
    }

    /// The best of two `stackday import SOURCE` runs into fresh databases (one with `--quick`) and
    /// of as many `sqlite3 .import` runs of the plain CSV `plain` names (given the first import's
    /// database) into a table with the same primary key and index. The import must report `records`.
    func importTimes(_ figure: String, source: String, records: Int, plain: (String) throws -> String) throws -> (Double, Double) {
        let schema = try context.write("schema.sql", """
            CREATE TABLE completions (owner TEXT NOT NULL, id TEXT NOT NULL, habit_id TEXT NOT NULL, completed_on TEXT NOT NULL,
                                      recorded_at REAL NOT NULL, amount_thousandths INTEGER NOT NULL, PRIMARY KEY (owner, id));
            CREATE INDEX completions_by_habit_day ON completions (owner, habit_id, completed_on, recorded_at, amount_thousandths);
            """)
        var engineBest = Double.infinity, baselineBest = Double.infinity
        var plainFile: String?
        for attempt in 0..<(context.quick ? 1 : 2) {
            let db = context.path("\(figure)-\(attempt).sqlite")
            let engine = try Measure.run(context.stackday, stackday(["import", source], db: db))
            guard engine.status == 0, engine.stdout.contains("Imported \(records) records") else { throw BenchError("\(figure): import failed: \(engine.stdout)") }
            engineBest = min(engineBest, engine.seconds)
            let file = try plainFile ?? plain(db)
            plainFile = file
            let baseline = try Measure.run("sqlite3", [context.path("\(figure)-plain-\(attempt).sqlite"), ".read \(schema)", ".import --csv --skip 1 \(file) completions"])
            guard baseline.status == 0 else { throw BenchError("\(figure): sqlite3 .import failed") }
            baselineBest = min(baselineBest, baseline.seconds)
        }
        return (engineBest, baselineBest)
    }

    /// P4l: a Loop Habit Tracker export folder (100 habits × 10 years of checkmarks) against
    /// `sqlite3 .import` of the same completion rows (the ids the import derives, in its order)
    /// into the same indexed table as P4.
    func loopImportFigure() throws -> Figure {
        let habits = context.quick ? 5 : 100
        let days = context.quick ? 100 : 3650
        let first = Self.end.adding(days: -days)
        let folder = context.path("loop-export")
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        var habitsCSV = "Position,Name,Type,Question,Description,FrequencyNumerator,FrequencyDenominator,Color,Unit,Target Type,Target Value,Archived?\n"
        var completions = 0, skips = 0
        for index in 0..<habits {
            let name = "Habit \(index)"
            let position = String(format: "%03d", index + 1)
            habitsCSV += "\(index + 1),\(name),YES_NO,,,1,1,#37474F,,,0,false\n"
            var marks = "Date,Value,Notes\n"
            marks.reserveCapacity(days * 24)
            // Newest first, as Loop writes them: 90 % done, 2 % skipped, the rest not.
            for offset in stride(from: days - 1, through: 0, by: -1) {
                let day = first.adding(days: offset)
                let roll = (offset * 7 + index * 13) % 100
                let value = roll < 90 ? "YES_MANUAL" : roll < 92 ? "SKIP" : "NO"
                marks += "\(day.iso),\(value),\n"
                if roll < 90 { completions += 1 } else if roll < 92 { skips += 1 }
            }
            let habitFolder = folder + "/\(position) \(name)"
            try FileManager.default.createDirectory(atPath: habitFolder, withIntermediateDirectories: true)
            try marks.write(toFile: habitFolder + "/Checkmarks.csv", atomically: true, encoding: .utf8)
        }
        try habitsCSV.write(toFile: folder + "/Habits.csv", atomically: true, encoding: .utf8)
        let (engineBest, baselineBest) = try importTimes("P4l", source: folder, records: habits + completions + skips) { db in
            // The baseline imports the very rows the import wrote: the same ids, in the same order.
            let rows = try Measure.run("sqlite3", ["-csv", db, "SELECT owner, id, habit_id, completed_on, recorded_at, amount_thousandths FROM completions ORDER BY rowid"])
            return try context.write("loop-plain.csv", "owner,id,habit_id,completed_on,recorded_at,amount_thousandths\n" + rows.stdout)
        }
        let ratio = engineBest / baselineBest
        return Figure(id: "P4l", compared: "stackday import of a Loop Habit Tracker export, \(habits) habits × \(days / 365) years (\(completions) completions) ÷ sqlite3 .import of them",
                      engine: Table.seconds(engineBest), baseline: Table.seconds(baselineBest), ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5)
    }

    /// P5 (a cold `today` process on a warm cache) and P5w (`today` right after one new record:
    /// the cache re-evaluates one habit from that day, against `--no-cache`).
    func todayFigures() throws -> [Figure] {
        let habits = context.quick ? 5 : 50
        let db = try makeDatabase("today.sqlite", habits: habits, days: 365)
        try warm(db)
        let engine = try Measure.bestRun(10, context.stackday, stackday(["today"], db: db))
        let baseline = try Measure.bestRun(10, "sqlite3", [db, "SELECT count(*) FROM completions"])
        let ratio = engine.seconds / baseline.seconds
        var afterRecord = (cached: Double.infinity, scratch: Double.infinity)
        for attempt in 0..<8 {
            for cached in [true, false] {
                let habit = "habit \((attempt * 2 + (cached ? 0 : 1)) % habits)"
                guard try Measure.run(context.stackday, stackday(["record", habit, "0.5", "--on", Self.end.iso], db: db)).status == 0 else {
                    throw BenchError("P5w: record failed")
                }
                let run = try Measure.run(context.stackday, stackday((cached ? [] : ["--no-cache"]) + ["today"], db: db))
                if cached { afterRecord.cached = min(afterRecord.cached, run.seconds) } else { afterRecord.scratch = min(afterRecord.scratch, run.seconds) }
            }
        }
        let warmRatio = afterRecord.cached / afterRecord.scratch
        // The same in one process, as an app or a server embeds the engine: no process start,
        // the Lua state already up; only the evaluation work is compared.
        let store = try SQLiteHabitStore(path: db)
        let library = try PolicyLibrary(searchPath: [])
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(Self.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        func habitContext(cached: Bool) -> HabitContext {
            HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: utc), policies: library, usesEvaluationCache: cached)
        }
        _ = try SummarizeHabits(context: habitContext(cached: true))(includeArchived: false)
        var inProcess = (cached: Double.infinity, scratch: Double.infinity)
        for attempt in 0..<8 {
            for cached in [true, false] {
                let habit = "habit \((attempt * 2 + (cached ? 0 : 1)) % habits)"
                try RecordCompletion(context: habitContext(cached: cached))(habitName: habit, amount: 0.5, on: Self.end)
                let seconds = try Measure.best(1) { _ = try SummarizeHabits(context: habitContext(cached: cached))(includeArchived: false) }
                if cached { inProcess.cached = min(inProcess.cached, seconds) } else { inProcess.scratch = min(inProcess.scratch, seconds) }
            }
        }
        let engineRatio = inProcess.cached / inProcess.scratch
        return [
            Figure(id: "P5", compared: "stackday today, cold process, warm cache, \(habits) habits × 1 year ÷ sqlite3 \"select count(*)\" as a process",
                   engine: Table.seconds(engine.seconds), baseline: Table.seconds(baseline.seconds), ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5),
            Figure(id: "P5w", compared: "stackday today right after one new record (warm cache) ÷ the same with --no-cache",
                   engine: Table.seconds(afterRecord.cached), baseline: Table.seconds(afterRecord.scratch), ratio: warmRatio, target: "≤ 0.2", met: warmRatio <= 0.2),
            Figure(id: "P5we", compared: "the same in one process (SummarizeHabits after RecordCompletion, the engine embedded)",
                   engine: Table.seconds(inProcess.cached), baseline: Table.seconds(inProcess.scratch), ratio: engineRatio, target: "≤ 0.2", met: engineRatio <= 0.2),
        ]
    }
}

extension String {
    func leftPadded(_ width: Int) -> String { count >= width ? self : String(repeating: "0", count: width - count) + self }
}
