import Dispatch
import Foundation
import StackDay
import StackDaySQLite
import StackDaySync
import StackDayTestSupport

/// S1–S2: sync with a real `stackday serve` over loopback (the library's `SyncClient` and HTTP
/// transport, which count the bytes on the wire). S1 is a first sync of a habit-heavy history,
/// against moving the same history by `export` and `import`; S2 is a sync after one new record,
/// on a 10-year history against a 1-year one; S3 is ten pushes of 250 habits all named alike, and
/// S4 another user's writes while two devices flood the server with pages of records.
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

    /// The options every `stackday` process of these figures is run with.
    var common: [String] { ["--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")] }

    /// A new user of the server's file, and its token.
    func token(_ user: String, serverDB: String) throws -> String {
        let added = try Measure.run(context.stackday, ["--db", serverDB] + common + ["user", "add", user])
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard added.status == 0, token.hasPrefix("sd_") else { throw BenchError("S1: user add failed") }
        return token
    }

    /// S3, S3e and S4 alone (`--only S3`), on a server file of their own that holds no history.
    func contention() throws -> [Figure] {
        let serverDB = context.path("contention-server.sqlite")
        let bystander = try token("bystander", serverDB: serverDB)
        let alike = try token("alike", serverDB: serverDB), flooder = try token("flooder", serverDB: serverDB)
        let server = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: ["--db", serverDB] + common)
        defer { server.stop() }
        try allowBystander(serverDB: serverDB)
        return try namedAlike(server: server, token: alike, bystander: bystander, flooder: flooder)
    }

    /// The bystander records one cup every 20 ms on one day, more than the 500 records of one
    /// habit a day a user may keep by default: a limit of its own, so that S3e and S4 time writes.
    func allowBystander(serverDB: String) throws {
        guard try Measure.run(context.stackday, ["--db", serverDB] + common + ["user", "limits", "bystander", "--set", "records-per-day=1000000"]).status == 0 else {
            throw BenchError("S3: the bystander's limit was refused")
        }
    }

    /// All of S1–S4, or only S1 and S1b when `firstOnly` (`--only S1`, to follow one change).
    func run(firstOnly: Bool = false) throws -> [Figure] {
        let store = StoreBenchmark(context: context)
        let habits = context.quick ? 5 : 50
        let long = context.quick ? 2 : 10
        let serverDB = context.path("sync-server.sqlite")
        func token(_ user: String) throws -> String { try self.token(user, serverDB: serverDB) }
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
        func move(_ name: String) throws -> (seconds: Double, archive: String, store: String) {
            let archive = context.path(name + ".json"), store = context.path(name + ".sqlite")
            let export = try Measure.run(context.stackday, ["--db", longDevice] + common + ["export", "--out", archive])
            let imported = try Measure.run(context.stackday, ["--db", store] + common + ["import", archive])
            guard export.status == 0, imported.status == 0 else { throw BenchError("S1: export or import failed") }
            return (export.seconds + imported.seconds, archive, store)
        }
        let moves = [try move("sync-fresh"), try move("sync-fresh-again")]
        let fresh = moves[0].store
        let archiveBytes = (try FileManager.default.attributesOfItem(atPath: moves[0].archive)[.size] as? Int) ?? 1
        let moved = moves.map(\.seconds).min() ?? moves[0].seconds
        // A second first sync, of an imported copy never synced into a user of its own: the best
        // of two on each side, as the other figures take the best of their runs.
        let again = context.path("sync-ten-again.sqlite")
        try FileManager.default.copyItem(atPath: moves[1].store, toPath: again)
        let second = try sync(device: again, url: url, token: try token("ten-again"))
        guard second.report.pushed > records, second.report.pulled == 0 else { throw BenchError("S1: the second first sync moved \(second.report)") }
        let synced = min(first.seconds, second.seconds)
        let firstFigures = [
            Figure(id: "S1", compared: "first sync, \(long) y × \(habits) habits (\(first.report.pushed) changes) ÷ export + import of the same history, best of two",
                   engine: Table.seconds(synced), baseline: Table.seconds(moved), ratio: synced / moved, target: "≤ 2×",
                   met: synced / moved <= 2),
            Figure(id: "S1b", compared: "its bytes on the wire ÷ the JSON export's bytes",
                   engine: "\(first.bytes / 1024) KiB", baseline: "\(archiveBytes / 1024) KiB", ratio: Double(first.bytes) / Double(archiveBytes),
                   target: "≤ 1.2×", met: Double(first.bytes) / Double(archiveBytes) <= 1.2),
        ]
        if firstOnly { return firstFigures }

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
                                   engine: Table.seconds(run.seconds), baseline: Table.seconds(synced), ratio: run.seconds / synced,
                                   target: "reported", met: nil))
        }

        let bystander = try token("bystander")
        try allowBystander(serverDB: serverDB)
        let alike = try namedAlike(server: server, token: try token("alike"), bystander: bystander, flooder: try token("flooder"))
        let repeats = context.quick ? 2 : 9
        let longIncrement = try incremental(device: longDevice, url: url, token: longToken, repeats: repeats)
        let shortIncrement = try incremental(device: shortDevice, url: url, token: shortToken, repeats: repeats)
        let record = try Measure.bestRun(repeats, context.stackday, ["--db", fresh] + common + ["record", "habit 2", "--on", StoreBenchmark.end.iso])
        return firstFigures + postgres + [
            Figure(id: "S2", compared: "sync after one new record: \(long)-year history ÷ 1-year history", engine: Table.seconds(longIncrement.seconds),
                   baseline: Table.seconds(shortIncrement.seconds), ratio: longIncrement.seconds / shortIncrement.seconds, target: "≤ 1.5×",
                   met: longIncrement.seconds / shortIncrement.seconds <= 1.5),
            Figure(id: "S2b", compared: "its bytes on the wire: \(long)-year ÷ 1-year history", engine: "\(longIncrement.bytes) B",
                   baseline: "\(shortIncrement.bytes) B", ratio: Double(longIncrement.bytes) / Double(shortIncrement.bytes), target: "≤ 1.1×",
                   met: Double(longIncrement.bytes) / Double(shortIncrement.bytes) <= 1.1),
            Figure(id: "S2c", compared: "sync after one new record (\(long) y) ÷ `stackday record` of one", engine: Table.seconds(longIncrement.seconds),
                   baseline: Table.seconds(record.seconds), ratio: longIncrement.seconds / record.seconds, target: "reported", met: nil),
        ] + alike
    }

    /// S3: ten pushes of 250 new habits all named `x` (what a broken or hostile client can send;
    /// the server settles them to `x (2)` … `x (2500)`), while another user records every 20 ms:
    /// the slowest push, and how many of the other user's writes were not answered 201.
    func namedAlike(server: ServerProcess, token: String, bystander: String, flooder: String) throws -> [Figure] {
        let pages = context.quick ? 3 : 10, perPage = 250
        // One habit's changes as a device sends them (its habit, its revision, its pinned scripts).
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(StoreBenchmark.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        let app = HabitContext(store: try SQLiteHabitStore(path: context.path("alike.sqlite")), clock: clock, boundary: DayBoundary(timeZone: utc))
        try CreateHabit(context: app)(name: "x", startedOn: StoreBenchmark.end, goal: 1000, unit: "cups")
        try RecordCompletion(context: app)(habitName: "x", amount: 1, on: StoreBenchmark.end)
        let template = try app.store.write { tx -> [SyncChange] in
            guard let sync = tx.sync else { throw BenchError("S3: the device store keeps no log") }
            return try sync.changes(after: 0, device: try sync.start { "alike" }, scope: .own, limit: 100).changes
        }
        guard let habit = template.first(where: { $0.kind == .habit }), case .habit(let habitFields)? = habit.entity,
              let revision = template.first(where: { $0.kind == .revision }), case .revision(let rules)? = revision.entity else {
            throw BenchError("S3: no habit in the device's log")
        }
        func clone(_ id: String) -> [SyncChange] {
            var copy = habitFields, copyRules = rules
            copy.id = id
            copyRules.habit = id
            return [SyncChange(.habit(copy), stamp: habit.stamp, fieldStamps: habit.fieldStamps), SyncChange(.revision(copyRules), stamp: revision.stamp)]
        }
        let client = server.client
        guard try client.send("POST", "/v1/habits", token: bystander, body: #"{"name":"water","goal":1000,"unit":"cups"}"#).status == 201 else {
            throw BenchError("S3: the other user's habit was refused")
        }
        let writes = Bystander(port: server.port, token: bystander)
        var slowest = 0.0
        var failed: [Int] = []
        for page in 0..<pages {
            let changes = (page == 0 ? template.filter { $0.kind == .script } : [])
                + (0..<perPage).flatMap { _ in clone(Self.newKey(like: habit.key)) }
            let body = SyncRequest(device: "alike", since: 0, changes: changes, limit: 0).json.jsonText
            let start = DispatchTime.now().uptimeNanoseconds
            let answer = try client.send("POST", "/v1/sync", token: token, body: body)
            slowest = max(slowest, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
            if answer.status != 200 { failed.append(answer.status) }
        }
        let statuses = writes.finish().map(\.status)
        guard failed.isEmpty else { throw BenchError("S3: pushes answered \(failed)") }
        let refused = statuses.filter { $0 != 201 }.count
        return [
            Figure(id: "S3", compared: "the slowest of \(pages) pushes of \(perPage) new habits all named x (settled to x (2) …)",
                   engine: Table.seconds(slowest), baseline: "1 s", ratio: slowest, target: "< 1 s", met: slowest < 1),
            Figure(id: "S3e", compared: "another user's writes meanwhile (\(statuses.count)) not answered 201",
                   engine: refused == 0 ? "0" : "\(refused) (\(Set(statuses.filter { $0 != 201 }).sorted()))", baseline: "0", ratio: Double(refused),
                   target: "0", met: refused == 0),
            try floods(server: server, flooder: flooder, bystander: bystander, template: template),
        ]
    }

    /// A new id, written in the case `key` (a device's) is written in.
    static func newKey(like key: String) -> String {
        key == key.lowercased() ? UUID().uuidString.lowercased() : UUID().uuidString
    }

    /// S4: another user's record writes (one every 20 ms) for a few seconds alone, then while two
    /// devices of a third user each push pages of 500 new records as fast as the server takes
    /// them: the writes' p99 with the floods ÷ without.
    func floods(server: ServerProcess, flooder: String, bystander: String, template: [SyncChange]) throws -> Figure {
        let seconds = context.quick ? 2.0 : 6.0
        let client = server.client
        guard let habit = template.first(where: { $0.kind == .habit }), let record = template.first(where: { $0.kind == .completion }) else {
            throw BenchError("S4: no record in the device's log")
        }
        // The habit and its rules first, then pages of records of it.
        let first = SyncRequest(device: "flood-0", since: 0, changes: template.filter { $0.kind != .completion }, limit: 0).json.jsonText
        guard try client.send("POST", "/v1/sync", token: flooder, body: first).status == 200 else { throw BenchError("S4: the habit was refused") }
        let quiet = Bystander(port: server.port, token: bystander)
        usleep(UInt32(seconds * 1e6))
        let alone = quiet.finish().filter { $0.status == 201 }.map(\.seconds)
        final class Flag: @unchecked Sendable {
            // Safe: set once under `lock`, read under it.
            let lock = NSLock()
            var stop = false
            var pushed = 0
        }
        let flag = Flag()
        let group = DispatchGroup()
        for stream in 1...2 {
            // The pages are made before the floods start: on this machine the devices' own work
            // would take the cores the server and the other user share, which on real devices it does not.
            let bodies = (0..<Int(seconds * 25)).map { _ in
                let changes = (0..<500).map { _ -> SyncChange in
                    let id = Self.newKey(like: habit.key)
                    guard case .record(var copy)? = record.entity else { return record }
                    copy.id = id
                    return SyncChange(.record(copy), stamp: record.stamp)
                }
                return SyncRequest(device: "flood-\(stream)", since: 0, changes: changes, limit: 0).json.jsonText
            }
            group.enter()
            Thread.detachNewThread {
                let pusher = HTTPClient(port: server.port, sourceAddress: "127.0.0.\(2 + stream)")
                for body in bodies where !flag.lock.withLock({ flag.stop }) {
                    if (try? pusher.send("POST", "/v1/sync", token: flooder, body: body).status) == 200 { flag.lock.withLock { flag.pushed += 1 } }
                }
                group.leave()
            }
        }
        let busy = Bystander(port: server.port, token: bystander)
        usleep(UInt32(seconds * 1e6))
        let during = busy.finish()
        flag.lock.withLock { flag.stop = true }
        group.wait()
        func p99(_ values: [Double]) -> Double { values.sorted()[min(values.count - 1, Int(Double(values.count) * 0.99))] }
        let failed = during.filter { $0.status != 201 }.count
        let statuses = Set(during.map(\.status).filter { $0 != 201 }).sorted()
        let withFloods = p99(during.map { $0.status == 201 ? $0.seconds : .infinity })
        let without = p99(alone)
        let ratio = withFloods / without
        return Figure(id: "S4", compared: "another user's write p99 while two devices push 500-record pages (\(flag.pushed) pages; \(failed) writes not 201\(statuses.isEmpty ? "" : " but \(statuses)")) ÷ alone",
                      engine: Table.seconds(withFloods), baseline: Table.seconds(without), ratio: ratio, target: "≤ 3×", met: ratio <= 3 && failed == 0)
    }
}

/// Another user recording one cup every 20 ms from its own address until `finish`: each write's
/// status and time.
final class Bystander: @unchecked Sendable {
    // Safe: `writes` and `stopped` are touched only under `lock`.
    private let lock = NSLock()
    private var writes: [(status: Int, seconds: Double)] = []
    private var stopped = false
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, token: String) {
        Thread.detachNewThread { [self] in
            let client = HTTPClient(port: port, sourceAddress: "127.0.0.2")
            while !lock.withLock({ stopped }) {
                let start = DispatchTime.now().uptimeNanoseconds
                let status = (try? client.send("POST", "/v1/habits/water/records", token: token, body: #"{"amount":1}"#).status) ?? 0
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
                lock.withLock { writes.append((status, seconds)) }
                usleep(20_000)
            }
            done.signal()
        }
    }

    /// Stops the writes and answers them.
    func finish() -> [(status: Int, seconds: Double)] {
        lock.withLock { stopped = true }
        done.wait()
        return lock.withLock { writes }
    }
}
