import Foundation
import StackDay
import StackDayLua
import StackDayPostgres
import StackDayTestSupport

/// SCALE: many users on one PostgreSQL. 1,000 users × 10 habits × 1 year are written through the
/// import path; two `stackday serve` processes answer `wrk` with a mixed load (90 % reads of
/// today, stats and calendars across random users, 10 % records), one `wrk` per server, for a
/// bounded time. Then every acknowledged record must be stored exactly once, and every user's
/// figures must equal a fresh evaluation without the cache.
struct ScaleBenchmark {
    let context: BenchContext

    func run() throws -> [Figure] {
        guard BenchContext.has("wrk"), (try? PostgresServer.binaries()) != nil else {
            FileHandle.standardError.write(Data("SCALE skipped: needs wrk and the PostgreSQL server binaries\n".utf8))
            return []
        }
        let users = context.quick ? 20 : 1_000
        let seconds = context.quick ? 3 : 20
        let database = try PostgresServer()
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(StoreBenchmark.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        let started = Date()
        var tokens: [String] = []
        // Imported with the scripts' resolver, so their rules are pinned, as a server's are.
        let resolver = try PolicyLibrary(searchPath: [])
        for index in 0..<users {
            let store = try PostgresHabitStore(url: database.url, owner: "user\(index)")
            let habitContext = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: utc), policies: resolver)
            tokens.append(try ManageUsers(context: habitContext).add("user\(index)", timeZone: "+00:00").token.text)
            try ImportArchive(context: habitContext)(try StoreBenchmark.sampleArchive(habits: 10, days: 365, createdAt: clock.now))
        }
        let generated = Date().timeIntervalSince(started)
        FileHandle.standardError.write(Data("SCALE: \(users) users × 10 habits × 1 year imported in \(Int(generated)) s\n".utf8))
        let count = { () throws -> Int in Int(try database.psql("SELECT count(*) FROM completions").trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1 }
        let before = try count()

        let common = ["--database", database.url, "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        let servers = try (0..<2).map { _ in
            try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: common, serveArguments: ["--threads", "4"])
        }
        defer { servers.forEach { _ = $0.stop() } }
        let script = try context.write("scale.lua", Self.script(tokens: tokens, day: StoreBenchmark.end.iso))
        // One wrk per server, at once (each blocks a dispatch thread, never Swift's pool).
        let ports = servers.map(\.port)
        let outputs = Outputs()
        DispatchQueue.concurrentPerform(iterations: ports.count) { index in
            let run = try? Measure.run("wrk", ["-t", "2", "-c", "16", "-d", "\(seconds)s", "--latency", "-s", script, "http://127.0.0.1:\(ports[index])/"])
            outputs.set(index, run)
        }
        var loads: [ServerBenchmark.Load] = []
        var acknowledged = 0
        for index in ports.indices {
            guard let finished = outputs.get(index), finished.status == 0 else { throw BenchError("SCALE: wrk failed") }
            loads.append(try ServerBenchmark.parse(finished.stdout, connections: 16))
            for line in finished.stdout.split(separator: "\n") where line.hasPrefix("ACKED ") {
                acknowledged += Int(line.dropFirst(6)) ?? 0
            }
        }
        let stored = try count() - before
        // Every user's figures, kept by the servers' caches, against a fresh evaluation.
        let library = try PolicyLibrary(searchPath: [])
        var differing = 0
        for index in 0..<users {
            let store = try PostgresHabitStore(url: database.url, owner: "user\(index)")
            func figures(_ cached: Bool) throws -> [HabitStatistics?] {
                let reading = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: utc), policies: library, usesEvaluationCache: cached)
                return try SummarizeHabits(context: reading)().map { try? $0.get().statistics }
            }
            if try figures(true) != figures(false) { differing += 1 }
        }
        let throughput = loads.reduce(0) { $0 + $1.requestsPerSecond }
        let p50 = loads.map(\.p50).max() ?? 0, p99 = loads.map(\.p99).max() ?? 0
        let errors = loads.reduce(0) { $0 + $1.errors }
        return [
            Figure(id: "S1", compared: "\(users) users × 10 habits × 1 year on PostgreSQL, two servers, 90 % reads / 10 % records: requests/s (p50 \(Table.seconds(p50)), p99 \(Table.seconds(p99)))",
                   engine: "\(Int(throughput)) req/s", baseline: "-", ratio: throughput, target: "reported", met: nil),
            Figure(id: "S2", compared: "errors and non-2xx answers under that load", engine: "\(errors)", baseline: "0", ratio: Double(errors), target: "0", met: errors == 0),
            // A record whose answer wrk dropped when its time ran out is stored but not counted:
            // at most one per connection (32).
            Figure(id: "S3", compared: "records stored − records acknowledged (201); at most the 32 requests in flight when wrk stopped",
                   engine: "\(stored)", baseline: "\(acknowledged)", ratio: Double(stored - acknowledged), target: "0 … 32",
                   met: acknowledged > 0 && stored >= acknowledged && stored - acknowledged <= 32),
            Figure(id: "S4", compared: "users whose cached figures differ from a fresh --no-cache evaluation", engine: "\(differing)", baseline: "0",
                   ratio: Double(differing), target: "0", met: differing == 0),
        ]
    }

    /// The wrk script: each request a random user's today, stats or calendar (90 %), or a record of
    /// 1 on a random habit today (10 %); the 201s are counted and printed as `ACKED n`.
    static func script(tokens: [String], day: String) -> String {
        """
        local tokens = {\(tokens.map { "\"\($0)\"" }.joined(separator: ","))}
        local threads = {}
        acked = 0
        function setup(thread) table.insert(threads, thread) end
        function init(args) math.randomseed(os.time() + math.random(1, 100000)) end
        function request()
          local token = tokens[math.random(#tokens)]
          local headers = { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }
          local habit = "habit%20" .. math.random(0, 9)
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
