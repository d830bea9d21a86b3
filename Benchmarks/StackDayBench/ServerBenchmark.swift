import Foundation
import StackDay
import StackDayExchange
import StackDayTestSupport

/// P8: `GET /v1/today` on `stackday serve` under `wrk` (127.0.0.1 only, 10 s per run), for a user
/// with 50 habits × 1 year, at 1, 8 and 32 connections, against a cold `stackday today` process
/// on the same data.
struct ServerBenchmark {
    let context: BenchContext

    struct Load {
        let connections: Int
        let requestsPerSecond: Double
        let p50: Double
        let p99: Double
        let errors: Int
    }

    func run() throws -> (figures: [Figure], loads: [Load]) {
        guard BenchContext.has("wrk") else {
            FileHandle.standardError.write(Data("P8 skipped: no wrk (apt-get install wrk)\n".utf8))
            return ([], [])
        }
        let benchmark = StoreBenchmark(context: context)
        let db = try benchmark.makeDatabase("serve.sqlite", habits: context.quick ? 5 : 50, days: 365)
        try benchmark.warm(db)
        let common = ["--db", db, "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        let added = try Measure.run(context.stackday, common + ["user", "add", "default"])
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard added.status == 0, token.hasPrefix("sd_") else { throw BenchError("P8: user add failed") }
        let cold = try Measure.bestRun(10, context.stackday, common + ["today"])
        let server = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: common, serveArguments: ["--threads", "4"])
        defer { server.stop() }
        let url = "http://127.0.0.1:\(server.port)/v1/today"
        let check = try server.client.send("GET", "/v1/today", token: token)
        guard check.status == 200, check.body.contains("\"habits\"") else { throw BenchError("P8: /v1/today answered \(check.status)") }
        let duration = context.quick ? 2 : 10
        var loads: [Load] = []
        for connections in [1, 8, 32] {
            let run = try Measure.run("wrk", ["-t", "\(min(2, connections))", "-c", "\(connections)", "-d", "\(duration)s", "--latency",
                                              "-H", "Authorization: Bearer \(token)", url])
            guard run.status == 0 else { throw BenchError("P8: wrk failed") }
            loads.append(try Self.parse(run.stdout, connections: connections))
        }
        // The same read computed on every request: a server with --no-cache keeps no answers and
        // no evaluations, so each request runs every habit's policies (under the request's budget).
        let computing = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: ["--no-cache"] + common,
                                          serveArguments: ["--threads", "4"])
        defer { computing.stop() }
        let computed = try Measure.run("wrk", ["-t", "1", "-c", "1", "-d", "\(duration)s", "--latency",
                                               "-H", "Authorization: Bearer \(token)", "http://127.0.0.1:\(computing.port)/v1/today"])
        guard computed.status == 0 else { throw BenchError("P8c: wrk failed") }
        let fresh = try Self.parse(computed.stdout, connections: 1)
        _ = computing.stop()
        let unseen = try unseenUsers()
        let single = loads[0], busiest = loads[2]
        let warmRatio = single.p50 / cold.seconds
        let tailRatio = busiest.p99 / busiest.p50
        let errors = loads.reduce(0) { $0 + $1.errors } + fresh.errors
        return ([
            Figure(id: "P8", compared: "GET /v1/today p50 at 1 connection, 50 habits × 1 year ÷ a cold stackday today process",
                   engine: Table.seconds(single.p50), baseline: Table.seconds(cold.seconds), ratio: warmRatio, target: "≤ 0.1×", met: warmRatio <= 0.1),
            Figure(id: "P8c", compared: "the same GET /v1/today computed on every request (--no-cache) p50 ÷ a cold stackday today process",
                   engine: Table.seconds(fresh.p50), baseline: Table.seconds(cold.seconds), ratio: fresh.p50 / cold.seconds, target: "reported", met: nil),
            unseen,
            Figure(id: "P8t", compared: "GET /v1/today at 32 connections: p99 ÷ p50", engine: Table.seconds(busiest.p99),
                   baseline: Table.seconds(busiest.p50), ratio: tailRatio, target: "≤ 3×", met: tailRatio <= 3),
            Figure(id: "P8e", compared: "errors and non-2xx answers over the three runs", engine: "\(errors)", baseline: "0",
                   ratio: Double(errors), target: "0", met: errors == 0),
        ], loads)
    }

    /// P8u: a computed `GET /v1/today` (`--no-cache`) for a user the server has not seen ÷ the
    /// same for a user it has, each of `users` users × 10 habits × 1 year asked once, interleaved
    /// with the repeat user's requests so both see the same machine.
    func unseenUsers() throws -> Figure {
        let users = context.quick ? 10 : 60
        let path = context.path("users.sqlite")
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let utc = TimeZone(secondsFromGMT: 0) ?? .gmt
        let clock = FixedClock(StoreBenchmark.end.firstInstant(in: utc).addingTimeInterval(12 * 3600))
        // Written by `stackday` processes that have exited, as a server finds its users' data.
        let archive = try context.write("users-archive.json", ArchiveJSON.encode(try StoreBenchmark.sampleArchive(habits: 10, days: 365, createdAt: clock.now)))
        let common = ["--db", path, "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        var tokens: [String] = []
        for index in 0...users {
            let added = try Measure.run(context.stackday, common + ["user", "add", "user\(index)"])
            let imported = try Measure.run(context.stackday, common + ["--user", "user\(index)", "import", archive])
            guard added.status == 0, imported.status == 0 else { throw BenchError("P8u: adding user\(index) failed") }
            tokens.append(added.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        let server = try ServerProcess(executable: URL(fileURLWithPath: context.stackday),
                                       arguments: ["--no-cache", "--db", path, "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")],
                                       serveArguments: ["--threads", "4"])
        defer { server.stop() }
        let repeated = tokens[users]
        func timed(_ token: String) throws -> Double {
            let started = Date()
            let answer = try server.client.send("GET", "/v1/today", token: token)
            guard answer.status == 200 else { throw BenchError("P8u: /v1/today answered \(answer.status)") }
            return Date().timeIntervalSince(started)
        }
        for _ in 0..<5 { _ = try timed(repeated) }
        var unseen: [Double] = [], seen: [Double] = []
        for index in 0..<users {
            unseen.append(try timed(tokens[index]))
            seen.append(try timed(repeated))
        }
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let ratio = median(unseen) / median(seen)
        return Figure(id: "P8u", compared: "a computed GET /v1/today (--no-cache, 10 habits × 1 year) p50 for \(users) users the server has not seen ÷ for a repeat user",
                      engine: Table.seconds(median(unseen)), baseline: Table.seconds(median(seen)), ratio: ratio, target: "≤ 2×", met: ratio <= 2)
    }

    /// Requests per second, p50 and p99 (seconds) and errors from `wrk --latency` output.
    static func parse(_ output: String, connections: Int) throws -> Load {
        func seconds(_ text: Substring) -> Double? {
            let units: [(String, Double)] = [("us", 1e-6), ("ms", 1e-3), ("s", 1)]
            for (suffix, scale) in units where text.hasSuffix(suffix) {
                return Double(text.dropLast(suffix.count)).map { $0 * scale }
            }
            return nil
        }
        var p50: Double?, p99: Double?, rps: Double?
        var errors = 0
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            if fields.count == 2, fields[0] == "50%" { p50 = seconds(fields[1]) }
            if fields.count == 2, fields[0] == "99%" { p99 = seconds(fields[1]) }
            if line.hasPrefix("Requests/sec:"), let last = fields.last { rps = Double(last) }
            if line.contains("Non-2xx or 3xx responses:"), let last = fields.last { errors += Int(last) ?? 0 }
            if line.contains("Socket errors:") {
                errors += line.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }.reduce(0, +)
            }
        }
        guard let p50, let p99, let rps else { throw BenchError("P8: cannot read wrk's output: \(output)") }
        return Load(connections: connections, requestsPerSecond: rps, p50: p50, p99: p99, errors: errors)
    }
}
