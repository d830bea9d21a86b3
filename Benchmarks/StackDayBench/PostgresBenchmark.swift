import Foundation
import StackDay
import StackDayPostgres
import StackDayTestSupport

/// P6 and P7: the command line on PostgreSQL (a server of the benchmark's own) against `psql`.
struct PostgresBenchmark {
    let context: BenchContext

    func run() throws -> [Figure] {
        guard (try? PostgresServer.binaries()) != nil else {
            FileHandle.standardError.write(Data("P6–P7 skipped: no PostgreSQL server binaries (apt-get install postgresql)\n".utf8))
            return []
        }
        let server = try PostgresServer()
        return [try importFigure(server)] + (try statsFigures(server))
    }

    /// `psql` on the benchmark's database, as this process's user (the server trusts local connections).
    func psql(_ server: PostgresServer, _ arguments: [String]) throws -> (program: String, arguments: [String]) {
        (try PostgresServer.binaries().appendingPathComponent("psql").path,
         ["-h", server.socketDirectory, "-p", "\(server.port)", "-U", server.user, "-d", server.database, "-v", "ON_ERROR_STOP=1", "-At"] + arguments)
    }

    /// P6: `stackday import` of N completions ÷ `psql \copy` of the same rows into the same table
    /// (`completions`: its partitions, key, index and foreign key), for another user with the same habits.
    func importFigure(_ server: PostgresServer) throws -> Figure {
        let rows = context.quick ? 1_000 : 1_000_000
        let habits = 100
        var engineCSV = "kind,id,habit,name,day,archived_on,recorded_at,updated_at,amount,unit,schedule,schedule_params,progress,progress_params,streak,streak_params\n"
        var plainCSV = "user_id,id,habit_id,completed_on,recorded_at,amount_thousandths\n"
        engineCSV.reserveCapacity(rows * 130)
        plainCSV.reserveCapacity(rows * 100)
        let first = StoreBenchmark.end.adding(days: -rows / habits - 10)
        var generator = SplitMix(seed: 11)
        func uuid() -> String {
            let hex = String(generator.next(), radix: 16).leftPadded(16) + String(generator.next(), radix: 16).leftPadded(16)
            let chars = Array(hex)
            return "\(String(chars[0..<8]))-\(String(chars[8..<12]))-4\(String(chars[13..<16]))-a\(String(chars[17..<20]))-\(String(chars[20..<32]))".uppercased()
        }
        let ids = (0..<habits).map { _ in uuid() }
        for (index, id) in ids.enumerated() {
            engineCSV += "habit,\(id),,habit \(index),\(first.iso),,2026-01-01T00:00:00.000Z,2026-01-01T00:00:00.000Z,1,,daily,{},goal,{},strict,{}\n"
        }
        for row in 0..<rows {
            let id = uuid(), habit = ids[row % habits], day = first.adding(days: row / habits)
            engineCSV += "completion,\(id),\(habit),,\(day.iso),,\(day.iso)T08:00:00.000Z,,1,,,,,,,\n"
            plainCSV += "bench-copy,\(id),\(habit),\(day.iso),\(Double(day.ordinal * 86_400 + 8 * 3600)),1000\n"
        }
        let engineFile = try context.write("pg-import.csv", engineCSV)
        let plainFile = try context.write("pg-import-plain.csv", plainCSV)
        let engine = try Measure.run(context.stackday, ["import", engineFile, "--database", server.url, "--user", "bench-import",
                                                       "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")])
        guard engine.status == 0, engine.stdout.contains("Imported \(habits + rows) records") else { throw BenchError("P6: import failed: \(engine.stdout)") }
        // The baseline's user gets the same habits, so that the foreign key holds for its rows too.
        let habitsSQL = "INSERT INTO habits (user_id, id, name, name_key, started_on, created_at, updated_at, unit) "
            + "SELECT 'bench-copy', id, name, name_key, started_on, created_at, updated_at, unit FROM habits WHERE user_id = 'bench-import'"
        let create = try psql(server, ["-c", habitsSQL])
        guard try Measure.run(create.program, create.arguments).status == 0 else { throw BenchError("P6: cannot copy the habits for the baseline") }
        let copy = try psql(server, ["-c", "\\copy completions (user_id, id, habit_id, completed_on, recorded_at, amount_thousandths) FROM '\(plainFile)' WITH (FORMAT csv, HEADER true)"])
        let baseline = try Measure.run(copy.program, copy.arguments)
        guard baseline.status == 0 else { throw BenchError("P6: psql \\copy failed") }
        let ratio = engine.seconds / baseline.seconds
        let stored = try psql(server, ["-c", "SELECT count(*) FROM completions WHERE user_id = 'bench-copy'"])
        guard try Measure.run(stored.program, stored.arguments).stdout == "\(rows)\n" else { throw BenchError("P6: the baseline did not copy every row") }
        return Figure(id: "P6", compared: "stackday import of \(rows) completions into PostgreSQL ÷ psql \\copy of the same rows into the same table",
                      engine: Table.seconds(engine.seconds), baseline: Table.seconds(baseline.seconds), ratio: ratio, target: "≤ 1.5×", met: ratio <= 1.5)
    }

    /// P7: `stackday stats --json` for 100 habits × 5 years on PostgreSQL ÷ `psql` running the
    /// aggregate that reads the same rows; P7c the same with `--no-cache` (every policy over every day).
    func statsFigures(_ server: PostgresServer) throws -> [Figure] {
        let habits = context.quick ? 5 : 100
        let days = context.quick ? 60 : 5 * 365 + 1
        let user = "bench-stats"
        let store = try PostgresHabitStore(url: server.url, owner: user)
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(StoreBenchmark.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        let habitContext = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: utc))
        let archive = try StoreBenchmark.sampleArchive(habits: habits, days: days, createdAt: clock.now)
        try ImportArchive(context: habitContext)(archive)
        let arguments = ["stats", "--json", "--database", server.url, "--user", user, "--now", StoreBenchmark.now, "--tz", "+00:00",
                         "--policies", context.path("no-user-policies")]
        guard try Measure.run(context.stackday, arguments).status == 0 else { throw BenchError("P7: stats failed") }
        let engine = try Measure.bestRun(5, context.stackday, arguments)
        let query = "SELECT habit_id, count(*), sum(amount_thousandths) FROM completions WHERE user_id = '\(user)' GROUP BY habit_id"
        let sum = try psql(server, ["-c", query])
        let baseline = try Measure.bestRun(5, sum.program, sum.arguments)
        let uncached = try Measure.bestRun(3, context.stackday, ["--no-cache"] + arguments)
        let ratio = engine.seconds / baseline.seconds
        return [
            Figure(id: "P7", compared: "stackday stats --json on PostgreSQL, \(archive.completions.count) completions (100 habits × 5 years) ÷ psql summing them",
                   engine: Table.seconds(engine.seconds), baseline: Table.seconds(baseline.seconds), ratio: ratio, target: "≤ 2×", met: ratio <= 2),
            Figure(id: "P7c", compared: "the same with --no-cache (every policy over every day) ÷ psql summing them",
                   engine: Table.seconds(uncached.seconds), baseline: Table.seconds(baseline.seconds), ratio: uncached.seconds / baseline.seconds,
                   target: "reported", met: nil),
        ]
    }
}
