import Dispatch
import Foundation
import StackDay
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// S1–S2: sync with a real `stackday serve` over loopback (the library's `SyncClient` and HTTP
/// transport, which count the bytes on the wire). S1 is a first sync of a habit-heavy history,
/// against moving the same history by `export` and `import`; S2 is a sync after one new record,
/// on a 10-year history against a 1-year one.
struct SyncBenchmark {
    let context: BenchContext

    struct Run {
        let seconds: Double
        let bytes: Int
        let report: SyncReport
    }

    func sync(device: String, url: String, token: String) throws -> Run {
        let transport = try HTTPSyncTransport(server: url, token: token)
        let client = SyncClient(store: try SQLiteHabitStore(path: device), server: transport.peer, transport: transport)
        let start = DispatchTime.now().uptimeNanoseconds
        let report = try client.syncWaiting()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let bytes = transport.bytes
        return Run(seconds: seconds, bytes: bytes.sent + bytes.received, report: report)
    }

    /// One more record on the device's first habit, on the last day, as the app would write it.
    func recordOne(_ device: String, amount: Double) throws {
        let store = try SQLiteHabitStore(path: device)
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(StoreBenchmark.end.firstInstant(in: utc).addingTimeInterval(13 * 3600))
        let app = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: utc))
        _ = try RecordCompletion(context: app)(habitName: "habit 1", amount: amount, on: StoreBenchmark.end)
    }

    /// The best of `repeats` syncs, each after one new record.
    func incremental(device: String, url: String, token: String, repeats: Int) throws -> Run {
        var best: Run?
        for index in 0..<repeats {
            try recordOne(device, amount: Double(index + 1))
            let run = try sync(device: device, url: url, token: token)
            guard run.report == SyncReport(pushed: 1, pulled: 0) else { throw BenchError("S2: one record synced as \(run.report)") }
            if best.map({ run.seconds < $0.seconds }) ?? true { best = run }
        }
        return best!
    }

    func run() throws -> [Figure] {
        let store = StoreBenchmark(context: context)
        let habits = context.quick ? 5 : 50
        let long = context.quick ? 2 : 10
        let common = ["--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        let serverDB = context.path("sync-server.sqlite")
        func token(_ user: String) throws -> String {
            let added = try Measure.run(context.stackday, ["--db", serverDB] + common + ["user", "add", user])
            let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard added.status == 0, token.hasPrefix("sd_") else { throw BenchError("S1: user add failed") }
            return token
        }
        let longToken = try token("ten")
        let shortToken = try token("one")
        let server = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: ["--db", serverDB] + common)
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)"

        let longDevice = try store.makeDatabase("sync-ten.sqlite", habits: habits, days: long * 365 + long / 4)
        let shortDevice = try store.makeDatabase("sync-one.sqlite", habits: habits, days: 365)
        // The rules pinned to their scripts, as the command line does on a store's first open.
        try store.warm(longDevice)
        try store.warm(shortDevice)
        let records = Int(try Measure.run("sqlite3", [longDevice, "SELECT count(*) FROM completions"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        let first = try sync(device: longDevice, url: url, token: longToken)
        guard first.report.pushed > records, first.report.pulled == 0 else { throw BenchError("S1: the first sync moved \(first.report)") }
        _ = try sync(device: shortDevice, url: url, token: shortToken)

        // The same history moved without sync: exported as JSON, imported into a fresh store.
        let archive = context.path("sync-ten.json")
        let fresh = context.path("sync-fresh.sqlite")
        let export = try Measure.run(context.stackday, ["--db", longDevice] + common + ["export", "--out", archive])
        let imported = try Measure.run(context.stackday, ["--db", fresh] + common + ["import", archive])
        guard export.status == 0, imported.status == 0 else { throw BenchError("S1: export or import failed") }
        let archiveBytes = (try FileManager.default.attributesOfItem(atPath: archive)[.size] as? Int) ?? 1
        let moved = export.seconds + imported.seconds

        // The same first sync with a server on PostgreSQL, from a copy of the history never synced.
        var postgres: [Figure] = []
        if (try? PostgresServer.binaries()) != nil {
            let untouched = context.path("sync-ten-postgres.sqlite")
            try FileManager.default.copyItem(atPath: fresh, toPath: untouched)
            let database = try PostgresServer()
            defer { try? database.stop() }
            let added = try Measure.run(context.stackday, ["--database", database.url] + common + ["user", "add", "ten"])
            let postgresToken = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            guard added.status == 0, postgresToken.hasPrefix("sd_") else { throw BenchError("S1p: user add failed") }
            let serving = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: ["--database", database.url] + common)
            defer { serving.stop() }
            let run = try sync(device: untouched, url: "http://127.0.0.1:\(serving.port)", token: postgresToken)
            guard run.report.pushed > records else { throw BenchError("S1p: the first sync moved \(run.report)") }
            postgres.append(Figure(id: "S1p", compared: "that first sync with a server on PostgreSQL ÷ with a server on SQLite",
                                   engine: Table.seconds(run.seconds), baseline: Table.seconds(first.seconds), ratio: run.seconds / first.seconds,
                                   target: "reported", met: nil))
        }

        let repeats = context.quick ? 2 : 9
        let longIncrement = try incremental(device: longDevice, url: url, token: longToken, repeats: repeats)
        let shortIncrement = try incremental(device: shortDevice, url: url, token: shortToken, repeats: repeats)
        let record = try Measure.bestRun(repeats, context.stackday, ["--db", fresh] + common + ["record", "habit 2", "--on", StoreBenchmark.end.iso])
        return [
            Figure(id: "S1", compared: "first sync, \(long) y × \(habits) habits (\(first.report.pushed) changes) ÷ export + import of the same history",
                   engine: Table.seconds(first.seconds), baseline: Table.seconds(moved), ratio: first.seconds / moved, target: "reported", met: nil),
            Figure(id: "S1b", compared: "its bytes on the wire ÷ the JSON export's bytes",
                   engine: "\(first.bytes / 1024) KiB", baseline: "\(archiveBytes / 1024) KiB", ratio: Double(first.bytes) / Double(archiveBytes), target: "reported", met: nil),
        ] + postgres + [
            Figure(id: "S2", compared: "sync after one new record: \(long)-year history ÷ 1-year history", engine: Table.seconds(longIncrement.seconds),
                   baseline: Table.seconds(shortIncrement.seconds), ratio: longIncrement.seconds / shortIncrement.seconds, target: "≤ 1.5×",
                   met: longIncrement.seconds / shortIncrement.seconds <= 1.5),
            Figure(id: "S2b", compared: "its bytes on the wire: \(long)-year ÷ 1-year history", engine: "\(longIncrement.bytes) B",
                   baseline: "\(shortIncrement.bytes) B", ratio: Double(longIncrement.bytes) / Double(shortIncrement.bytes), target: "≤ 1.1×",
                   met: Double(longIncrement.bytes) / Double(shortIncrement.bytes) <= 1.1),
            Figure(id: "S2c", compared: "sync after one new record (\(long) y) ÷ `stackday record` of one", engine: Table.seconds(longIncrement.seconds),
                   baseline: Table.seconds(record.seconds), ratio: longIncrement.seconds / record.seconds, target: "reported", met: nil),
        ]
    }
}
