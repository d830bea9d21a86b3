import Foundation
import StackDayTestSupport

/// W1–W4: the web app's today page for a user with 20 habits × 1 year: its weight with everything
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
        // The lab on a habit of one year: both histories evaluated, every day compared, drawn
        // (pages are never kept answers).
        let labPath = "/habits/habit%200?lab=1&role=streak&policy=grace&labParam.grace.misses=1&labParam.grace.per=7"
        let tried = try client.send("GET", labPath, headers: ["Cookie": cookie])
        guard tried.status == 200, tried.body.contains("id=\"lab-result\"") else { throw BenchError("W4: the lab answered \(tried.status)") }
        let lab = try median { _ = try client.send("GET", labPath, headers: ["Cookie": cookie]) }
        // Explain over 20 years of daily history: the fold runs from the start, 8 weeks are shown.
        let long = try benchmark.makeDatabase("explain.sqlite", habits: 1, days: 20 * 365)
        let longCommon = ["--db", long, "--now", StoreBenchmark.now, "--tz", "+00:00", "--policies", context.path("no-user-policies")]
        let longToken = try Measure.run(context.stackday, longCommon + ["user", "add", "default"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        _ = try Measure.run(context.stackday, longCommon + ["habit", "edit", "habit 0", "--streak", "grace", "--retroactive"])
        let explainServer = try ServerProcess(executable: URL(fileURLWithPath: context.stackday), arguments: longCommon, serveArguments: ["--threads", "2"])
        defer { explainServer.stop() }
        let explained = try explainServer.client.send("GET", "/v1/habits/habit%200/explain", token: longToken)
        guard explained.status == 200, explained.body.contains("\"steps\"") else { throw BenchError("W3: explain answered \(explained.status) \(explained.body.prefix(200))") }
        // A different range each time, so no kept answer serves it: every request runs the fold
        // (the evaluated days come from the evaluation cache, as they would for any read).
        var shift = 0
        let explain = try median {
            shift += 1
            let to = StoreBenchmark.end.adding(days: -(shift % 300))
            _ = try explainServer.client.send("GET", "/v1/habits/habit%200/explain?to=\(to.iso)", token: longToken)
        }
        return [
            Figure(id: "W1", compared: "today's page for 20 habits with its stylesheet and script, bytes ÷ 100 KB",
                   engine: "\(weight / 1024) KiB", baseline: "100 KB", ratio: Double(weight) / 100_000, target: "< 1×", met: weight < 100_000),
            Figure(id: "W2", compared: "GET / for 20 habits × 1 year (rendered each time) p50 ÷ GET /v1/today (kept answer) p50",
                   engine: Table.seconds(html), baseline: Table.seconds(json), ratio: html / json, target: "reported", met: nil),
            Figure(id: "W3", compared: "GET /v1/habits/{name}/explain, 20 years of daily history under grace, p50 ÷ 100 ms",
                   engine: Table.seconds(explain), baseline: "100 ms", ratio: explain / 0.1, target: "< 1×", met: explain < 0.1),
            Figure(id: "W4", compared: "the lab on a habit page (grace against strict over 1 year, rendered) p50 ÷ 200 ms",
                   engine: Table.seconds(lab), baseline: "200 ms", ratio: lab / 0.2, target: "< 1×", met: lab < 0.2),
        ]
    }
}
