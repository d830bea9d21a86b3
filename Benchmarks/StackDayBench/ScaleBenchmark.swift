import Foundation
import StackDay
import StackDayLua
import StackDayPostgres
import StackDaySQLite
import StackDayTestSupport

/// SCALE: many users. Three setups side by side, each written through the import path (two
/// importing threads) and then answering `wrk` with a mixed load (90 % reads of today, stats and
/// calendars across random users, 10 % records), one `wrk` (2 threads, 16 connections) per
/// server, for a bounded time: 1,000 users × 10 habits × 1 year on PostgreSQL with two servers,
/// the same on SQLite with one server, and 10,000 users × 5 habits on PostgreSQL with two
/// servers. After each, every acknowledged record must be stored exactly once, and a sample of
/// users' figures must equal a fresh evaluation without the cache.
struct ScaleBenchmark {
    let context: BenchContext

    /// One setup: how many users and habits, on which store, behind how many servers.
    struct Setup {
        let label: String
        let users: Int
        let habits: Int
        let postgres: Bool
        let servers: Int
    }

    /// What one setup's load gave.
    struct Outcome {
        let setup: Setup
        let throughput: Double
        let p50: Double, p99: Double
        let errors: Int
        let stored: Int, acknowledged: Int
        let sampled: Int, differing: Int
        let imported: TimeInterval
        /// The servers' own CPU time (user and system) for each request answered: steadier than
        /// requests a second on a machine the load, PostgreSQL and the servers share.
        let cpuPerRequest: TimeInterval
    }

    /// A process's CPU time so far, user and system, from `/proc/<pid>/stat` (fields 14 and 15,
    /// in clock ticks); 0 when it cannot be read.
    static func cpuSeconds(_ pid: pid_t) -> TimeInterval {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = text.lastIndex(of: ")") else { return 0 }
        // The fields after the command name, which is in parentheses and may hold spaces.
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// `firstOnly`: the first setup alone (S1, S2), for a pair of builds run side by side.
    func run(firstOnly: Bool = false) throws -> [Figure] {
        guard BenchContext.has("wrk"), (try? PostgresServer.binaries()) != nil else {
            FileHandle.standardError.write(Data("SCALE skipped: needs wrk and the PostgreSQL server binaries\n".utf8))
            return []
        }
        let quick = context.quick
        let setups = [
            Setup(label: "1k-postgres", users: quick ? 20 : 1_000, habits: 10, postgres: true, servers: 2),
            Setup(label: "1k-sqlite", users: quick ? 20 : 1_000, habits: 10, postgres: false, servers: 1),
            Setup(label: "10k-postgres", users: quick ? 200 : 10_000, habits: 5, postgres: true, servers: 2),
        ]
        let first = try measure(setups[0])
        func checks(_ outcome: Outcome) -> (text: String, met: Bool) {
            // A record whose answer wrk dropped when its time ran out is stored but not counted:
            // at most one per connection in flight.
            let inFlight = 16 * outcome.setup.servers
            let lost = outcome.stored - outcome.acknowledged
            return ("\(outcome.errors); \(lost) (≤ \(inFlight)); \(outcome.differing) of \(outcome.sampled)",
                    outcome.errors == 0 && outcome.acknowledged > 0 && lost >= 0 && lost <= inFlight && outcome.differing == 0)
        }
        func load(_ outcome: Outcome) -> String {
            "\(Int(outcome.throughput)) req/s (p50 \(Table.seconds(outcome.p50)), p99 \(Table.seconds(outcome.p99)); \(Table.seconds(outcome.cpuPerRequest)) server CPU a request)"
        }
        let firstChecks = checks(first)
        let firstFigures = [
            Figure(id: "S1", compared: "\(first.setup.users) users × 10 habits × 1 year on PostgreSQL, two servers, 90 % reads / 10 % records: requests/s",
                   engine: load(first), baseline: "1,800 req/s, p99 50 ms", ratio: first.throughput / 1_800, target: "≥ 1,800 req/s, p99 ≤ 50 ms",
                   met: first.throughput >= 1_800 && first.p99 <= 0.050),
            Figure(id: "S2", compared: "S1: errors; records stored − acknowledged; sampled users whose cached figures differ from --no-cache",
                   engine: firstChecks.text, baseline: "0; 0; 0", ratio: firstChecks.met ? 1 : 0, target: "all 0", met: firstChecks.met),
        ]
        if firstOnly { return firstFigures }
        let sqlite = try measure(setups[1]), many = try measure(setups[2])
        let sqliteChecks = checks(sqlite), manyChecks = checks(many)
        let growth = first.p50 > 0 ? many.p50 / first.p50 : .infinity
        return firstFigures + [
            Figure(id: "S3", compared: "\(sqlite.setup.users) users × 10 habits × 1 year on SQLite, one server, the same load: requests/s",
                   engine: load(sqlite), baseline: load(first), ratio: first.throughput > 0 ? sqlite.throughput / first.throughput : 0, target: "reported", met: nil),
            Figure(id: "S4", compared: "S3: errors; records stored − acknowledged; sampled users whose cached figures differ",
                   engine: sqliteChecks.text, baseline: "0; 0; 0", ratio: sqliteChecks.met ? 1 : 0, target: "all 0", met: sqliteChecks.met),
            Figure(id: "S5", compared: "\(many.setup.users) users × 5 habits × 1 year on PostgreSQL, two servers, the same load: p50 against S1's",
                   engine: load(many), baseline: load(first), ratio: growth, target: "p50 ≤ 1.5 × S1's", met: growth <= 1.5),
            Figure(id: "S6", compared: "S5: errors; records stored − acknowledged; sampled users whose cached figures differ",
                   engine: manyChecks.text, baseline: "0; 0; 0", ratio: manyChecks.met ? 1 : 0, target: "all 0", met: manyChecks.met),
        ]
    }

    /// Builds `setup`'s store, serves it, loads it, and checks what it holds after.
    func measure(_ setup: Setup) throws -> Outcome {
        let seconds = context.quick ? 3 : 20
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(StoreBenchmark.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        let database = setup.postgres ? try PostgresServer() : nil
        let file = context.path("scale-\(setup.label).sqlite")
        try? FileManager.default.removeItem(atPath: file)
        let url = database?.url
        let store: @Sendable (String) throws -> any HabitStore = { owner in
            if let url { return try PostgresHabitStore(url: url, owner: owner) }
            return try SQLiteHabitStore(path: file, owner: owner)
        }
        // Imported with the scripts' resolver, so their rules are pinned, as a server's are; two
        // threads, each with its own connections and resolver.
        let started = Date()
        let tokens = Tokens(count: setup.users)
        let failures = Tokens(count: 2)
        DispatchQueue.concurrentPerform(iterations: 2) { lane in
            do {
                let resolver = try PolicyLibrary(searchPath: [])
                for index in stride(from: lane, to: setup.users, by: 2) {
                    let habitContext = HabitContext(store: try store("user\(index)"), clock: clock, boundary: DayBoundary(timeZone: utc), policies: resolver)
                    tokens.set(index, try ManageUsers(context: habitContext).add("user\(index)", timeZone: "+00:00").token.text)
                    try ImportArchive(context: habitContext)(try StoreBenchmark.sampleArchive(habits: setup.habits, days: 365, createdAt: clock.now))
                }
            } catch {
                failures.set(lane, "\(error)")
            }
        }
        if let failure = failures.all.first(where: { !$0.isEmpty }) { throw BenchError("SCALE \(setup.label): import failed: \(failure)") }
        let imported = Date().timeIntervalSince(started)
        FileHandle.standardError.write(Data("SCALE \(setup.label): \(setup.users) users × \(setup.habits) habits × 1 year imported in \(Int(imported)) s\n".utf8))
        let count = { () throws -> Int in
            if let database { return Int(try database.psql("SELECT count(*) FROM completions").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
            return Int(try Measure.run("sqlite3", [file, "SELECT count(*) FROM completions"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
        }
        let before = try count()

        let location = database.map { ["--database", $0.url] } ?? ["--db", file]
        let common = location + ["--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        let servers = try (0..<setup.servers).map { _ in
            try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: common, serveArguments: ["--threads", "4"])
        }
        defer { servers.forEach { _ = $0.stop() } }
        let script = try context.write("scale-\(setup.label).lua", Self.script(tokens: tokens.all, habits: setup.habits, day: StoreBenchmark.end.iso))
        // One wrk per server, at once (each blocks a dispatch thread, never Swift's pool).
        let ports = servers.map(\.port)
        let outputs = Outputs()
        let cpuBefore = servers.reduce(0) { $0 + Self.cpuSeconds($1.process.processIdentifier) }
        DispatchQueue.concurrentPerform(iterations: ports.count) { index in
            let run = try? Measure.run("wrk", ["-t", "2", "-c", "16", "-d", "\(seconds)s", "--latency", "-s", script, "http://127.0.0.1:\(ports[index])/"])
            outputs.set(index, run)
        }
        var loads: [ServerBenchmark.Load] = []
        var acknowledged = 0
        for index in ports.indices {
            guard let finished = outputs.get(index), finished.status == 0 else { throw BenchError("SCALE \(setup.label): wrk failed") }
            loads.append(try ServerBenchmark.parse(finished.stdout, connections: 16))
            for line in finished.stdout.split(separator: "\n") where line.hasPrefix("ACKED ") {
                acknowledged += Int(line.dropFirst(6)) ?? 0
            }
        }
        let cpu = servers.reduce(0) { $0 + Self.cpuSeconds($1.process.processIdentifier) } - cpuBefore
        servers.forEach { _ = $0.stop() }
        let answered = loads.reduce(0) { $0 + $1.requestsPerSecond } * Double(seconds)
        let stored = try count() - before
        // A sample of users' figures, kept by the servers' caches, against a fresh evaluation.
        let library = try PolicyLibrary(searchPath: [])
        let sample = Array(stride(from: 0, to: setup.users, by: max(1, setup.users / 200)))
        var differing = 0
        for index in sample {
            let reading = try store("user\(index)")
            func figures(_ cached: Bool) throws -> [HabitStatistics?] {
                let habitContext = HabitContext(store: reading, clock: clock, boundary: DayBoundary(timeZone: utc), policies: library, usesEvaluationCache: cached)
                return try SummarizeHabits(context: habitContext)().map { try? $0.get().statistics }
            }
            if try figures(true) != figures(false) { differing += 1 }
        }
        return Outcome(setup: setup, throughput: loads.reduce(0) { $0 + $1.requestsPerSecond }, p50: loads.map(\.p50).max() ?? 0,
                       p99: loads.map(\.p99).max() ?? 0, errors: loads.reduce(0) { $0 + $1.errors }, stored: stored, acknowledged: acknowledged,
                       sampled: sample.count, differing: differing, imported: imported,
                       cpuPerRequest: answered > 0 ? cpu / answered : 0)
    }

    /// Texts written by index from several threads.
    /// `@unchecked Sendable`: `texts` is read and written holding `lock`.
    final class Tokens: @unchecked Sendable {
        private let lock = NSLock()
        private var texts: [String]

        init(count: Int) { texts = Array(repeating: "", count: count) }
        func set(_ index: Int, _ text: String) { lock.withLock { texts[index] = text } }
        var all: [String] { lock.withLock { texts } }
    }

    /// The wrk script: each request a random user's today, stats or calendar (90 %), or a record of
    /// 1 on one of their `habits` today (10 %); the 201s are counted and printed as `ACKED n`.
    static func script(tokens: [String], habits: Int, day: String) -> String {
        """
        local tokens = {\(tokens.map { "\"\($0)\"" }.joined(separator: ","))}
        local threads = {}
        acked = 0
        function setup(thread) table.insert(threads, thread) end
        function init(args) math.randomseed(os.time() + math.random(1, 100000)) end
        function request()
          local token = tokens[math.random(#tokens)]
          local headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
          local habit = "habit%20" .. math.random(0, \(habits - 1))
          local pick = math.random(100)
          if pick <= 10 then
            return wrk.format("POST", "/v1/habits/" .. habit .. "/records", headers, '{"amount":1,"on":"\(day)"}')
          elseif pick <= 40 then
            return wrk.format("GET", "/v1/today", headers)
          elseif pick <= 70 then
            return wrk.format("GET", "/v1/stats", headers)
          end
          return wrk.format("GET", "/v1/calendar/" .. habit, headers)
        end
        function response(status, headers, body)
          if status == 201 then acked = acked + 1 end
        end
        function done(summary, latency, requests)
          local total = 0
          for _, thread in ipairs(threads) do total = total + thread:get("acked") end
          print("ACKED " .. total)
        end
        """
    }

    /// The two wrk runs' results, written from two threads.
    /// `@unchecked Sendable`: `runs` is read and written holding `lock`.
    final class Outputs: @unchecked Sendable {
        private let lock = NSLock()
        private var runs: [Int: Measure.ProcessRun] = [:]

        func set(_ index: Int, _ run: Measure.ProcessRun?) { lock.withLock { runs[index] = run } }
        func get(_ index: Int) -> Measure.ProcessRun? { lock.withLock { runs[index] } }
    }
}
