import Foundation
import StackDayTestSupport

/// W1–W2: the web app's today page for a user with 20 habits × 1 year: its weight with everything
/// it loads (the page, `/app.css`, `/app.js`), and the server's time to render it against the
/// time to answer the same figures as JSON (`GET /v1/today`), both over loopback, one request
/// at a time, median of many.
struct WebBenchmark {
    let context: BenchContext

    func run() throws -> [Figure] {
        let benchmark = StoreBenchmark(context: context)
        let db = try benchmark.makeDatabase("web.sqlite", habits: 20, days: 365)
        try benchmark.warm(db)
        let common = ["--db", db, "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        let added = try Measure.run(context.stackday, common + ["user", "add", "default"])
        let token = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        guard added.status == 0, token.hasPrefix("sd_") else { throw BenchError("W: user add failed") }
        let server = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: common, serveArguments: ["--threads", "2"])
        defer { server.stop() }
        let client = server.client
        let signedIn = try client.send("POST", "/session", body: "token=\(token)")
        guard signedIn.status == 303, let line = signedIn.headers["set-cookie"] else { throw BenchError("W: sign-in answered \(signedIn.status)") }
        let cookie = String(line.prefix { $0 != ";" })
        let page = try client.send("GET", "/", headers: ["Cookie": cookie])
        guard page.status == 200, page.body.components(separatedBy: "data-habit=").count == 21 else { throw BenchError("W: / is not 20 habits") }
        let weight = try ["/", "/app.css", "/app.js"].reduce(0) { total, path in
            total + (try client.send("GET", path, headers: ["Cookie": cookie]).body.utf8.count)
        }
        let repeats = context.quick ? 20 : 200
        func median(_ body: () throws -> Void) rethrows -> Double {
            var times: [Double] = []
            for _ in 0..<repeats {
                let start = Date()
                try body()
                times.append(Date().timeIntervalSince(start))
            }
            return times.sorted()[times.count / 2]
        }
        let html = try median { _ = try client.send("GET", "/", headers: ["Cookie": cookie]) }
        let json = try median { _ = try client.send("GET", "/v1/today", token: token) }
        return [
            Figure(id: "W1", compared: "today's page for 20 habits with its stylesheet and script, bytes ÷ 100 KB",
                   engine: "\(weight / 1024) KiB", baseline: "100 KB", ratio: Double(weight) / 100_000, target: "< 1×", met: weight < 100_000),
            Figure(id: "W2", compared: "GET / for 20 habits × 1 year (rendered each time) p50 ÷ GET /v1/today (kept answer) p50",
                   engine: Table.seconds(html), baseline: Table.seconds(json), ratio: html / json, target: "reported", met: nil),
        ]
    }
}
