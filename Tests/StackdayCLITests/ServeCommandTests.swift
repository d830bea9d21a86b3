import Foundation
import Testing
import StackDayTestSupport

/// `stackday serve` as a real process on 127.0.0.1 and a free port, driven over HTTP.
@Suite("stackday serve")
struct ServeCommandTests {
    static let now = "2026-10-11T22:00:00+09:00"

    /// A store with users `ana` and `bob` (Seoul time) and a server on it; their tokens.
    func serve(_ serveArguments: [String] = []) throws -> (CLIFixture, ServerProcess, ana: String, bob: String) {
        let cli = try CLIFixture(now: Self.now)
        let ana = try cli.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        let bob = try cli.run(["user", "add", "bob"]).stdout.trimmingCharacters(in: .newlines)
        let server = try ServerProcess(executable: stackday.executable, arguments: ["--db", cli.db, "--now", Self.now, "--tz", "+09:00",
                                                                                   "--policies", cli.folder.path("policies")],
                                       serveArguments: serveArguments, environment: ["LANG": "C.UTF-8"])
        server.keepAlive = cli
        return (cli, server, ana, bob)
    }

    @Test("seed 000 entered over HTTP: the weekly report is byte for byte the sample, and every read is the command line's JSON")
    func sameAnswers() throws {
        let (cli, server, ana, _) = try serve()
        defer { server.stop() }
        let client = server.client
        for (name, goal, unit) in [("물 마시기", 8, "잔"), ("운동", 30, "분"), ("독서", 20, "쪽")] {
            let created = try client.send("POST", "/v1/habits", token: ana,
                                          body: #"{"name":"\#(name)","goal":\#(goal),"unit":"\#(unit)","start":"2026-10-01"}"#)
            #expect(created.status == 201, "\(created.body)")
        }
        let amounts = [
            "물 마시기": [8, 8, 6, 8, 8, 8, 9, 8, 8, 8, 3], "운동": [30, 0, 45, 30, 0, 25, 30, 0, 35, 30, 30],
            "독서": [10, 25, 30, 20, 0, 15, 20, 22, 0, 20, 20],
        ]
        for (name, values) in amounts {
            let path = "/v1/habits/" + name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "/records"
            for (offset, amount) in values.enumerated() where amount > 0 {
                let recorded = try client.send("POST", path, token: ana, body: #"{"amount":\#(amount),"on":"2026-10-\#(String(format: "%02d", offset + 1))"}"#)
                #expect(recorded.status == 201, "\(recorded.body)")
            }
        }
        let water = "/v1/habits/" + "물 마시기".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "/records"
        let exercise = "/v1/habits/" + "운동".addingPercentEncoding(withAllowedCharacters: .urlPathAllowed)! + "/records"
        #expect(try client.send("POST", water, token: ana, body: #"{"amount":2,"at":"2026-10-11T21:40:00+09:00"}"#).status == 201)
        #expect(try client.send("POST", exercise, token: ana, body: #"{"amount":15,"at":"2026-10-05T22:30:00Z"}"#).status == 201)

        let report = try client.send("GET", "/v1/report/week?lang=ko", token: ana)
        #expect(report.status == 200 && report.headers["content-type"]?.hasPrefix("text/plain") == true)
        #expect(report.body == SeedReport.korean + "\n")
        for (path, command) in [("/v1/today", ["today"]), ("/v1/stats", ["stats"]), ("/v1/habits", ["habit", "list"]),
                                ("/v1/habits/%EC%9A%B4%EB%8F%99", ["habit", "show", "운동"])] {
            let answer = try client.send("GET", path, token: ana)
            let printed = try cli.run(["--user", "ana", "--tz", "+09:00", "--json"] + command)
            #expect(answer.status == 200 && answer.body == printed.stdout, "\(path)")
        }
    }

    @Test("no token, a wrong token, another user's token: 401, 401, and 404 for their habits, with nothing of theirs in any message")
    func authentication() throws {
        // Dozens of wrong tokens on purpose: the address's throttle set above them.
        let (_, server, ana, bob) = try serve(["--auth-failures", "100"])
        defer { server.stop() }
        let client = server.client
        let created = try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"secret diary","start":"2026-10-01"}"#)
        #expect(created.status == 201, "\(created.status) \(created.body) \(server.log())")
        let paths = [("GET", "/v1/habits/secret%20diary"), ("DELETE", "/v1/habits/secret%20diary"), ("POST", "/v1/habits/secret%20diary/records"),
                     ("DELETE", "/v1/habits/secret%20diary/records/latest"), ("POST", "/v1/habits/secret%20diary/skips"),
                     ("PATCH", "/v1/habits/secret%20diary"), ("GET", "/v1/calendar/secret%20diary"), ("GET", "/v1/habits/secret%20diary/revisions"),
                     ("POST", "/v1/habits/secret%20diary/rollback"), ("POST", "/v1/habits/secret%20diary/simulate")]
        for (method, path) in paths {
            let bodies = ["skips": #"{"from":"2026-10-05"}"#, "simulate": #"{"policy":"grace","role":"streak"}"#, "diary": #"{"unit":"pages"}"#]
            let body = method == "POST" || method == "PATCH" ? bodies.first { path.hasSuffix($0.key) }?.value ?? "{}" : nil
            #expect(try client.send(method, path, body: body).status == 401, "\(method) \(path)")
            #expect(try client.send(method, path, token: "sd_" + String(repeating: "0", count: 64), body: body).status == 401)
            let foreign = try client.send(method, path, token: bob, body: body)
            #expect(foreign.status == 404, "\(method) \(path): \(foreign.status) \(foreign.body)")
        }
        for path in ["/v1/habits", "/v1/today", "/v1/stats", "/v1/report/week", "/v1/policies", "/v1/settings"] {
            #expect(try client.send("GET", path).status == 401, "\(path) without a token")
            let answer = try client.send("GET", path, token: bob)
            #expect(answer.status == 200 && !answer.body.contains("secret"), "\(path): \(answer.body)")
        }
        #expect(try client.send("GET", "/v1/habits/secret%20diary", token: ana).status == 200)
        #expect(try client.send("GET", "/healthz").body == "ok\n")
        let log = server.log()
        #expect(!log.contains(ana) && !log.contains(bob), "the access log holds a token")
        #expect(log.contains("GET /v1/habits/secret diary 404 ") && log.contains(" bob\n") && log.contains("GET /v1/habits/secret diary 401 "), "\(log)")
    }

    @Test("bad requests are a 400, 404, 405 or 413 naming what is wrong, and write nothing", arguments: [
        ("POST", "/v1/habits", "{\"name\":", 400, "the body is not JSON"),
        ("POST", "/v1/habits", "[1,2]", 400, "the body must be a JSON object"),
        ("POST", "/v1/habits", #"{"name":"x","colour":"red"}"#, 400, "unknown field 'colour'"),
        ("POST", "/v1/habits", #"{"name":7}"#, 400, "invalid value for field 'name': a string is expected"),
        ("POST", "/v1/habits", #"{"name":"x","goal":"lots"}"#, 400, "invalid value for field 'goal': a number is expected"),
        ("POST", "/v1/habits", #"{"name":"x","goal":1e999}"#, 400, "number out of range"),
        ("POST", "/v1/habits", #"{"name":"x","goal":NaN}"#, 400, "the body is not JSON"),
        ("POST", "/v1/habits", #"{"name":"x","start":"2026-02-30"}"#, 400, "invalid value for field 'start': 2026-02-30 does not exist"),
        ("POST", "/v1/habits", #"{"name":"read"}"#, 409, "a habit named 'read' already exists"),
        ("POST", "/v1/habits/read/records", #"{"amount":1e300}"#, 400, ""),
        ("POST", "/v1/habits/read/records", #"{"amount":1,"on":"2026-13-01"}"#, 400, "invalid value for field 'on'"),
        ("POST", "/v1/habits/read/records", #"{"amount":1,"at":"yesterday"}"#, 400, "invalid value for field 'at': 'yesterday' is not an ISO 8601 instant"),
        ("POST", "/v1/habits/read/records", #"{"amount":1,"on":"2026-10-20"}"#, 400, ""),
        ("GET", "/v1/habits/..%2F..%2Fetc%2Fpasswd", nil, 404, ""),
        ("GET", "/v1/nothing", nil, 404, "no such endpoint"),
        ("PATCH", "/v1/today", nil, 405, "PATCH is not allowed here"),
        ("GET", "/v1/report/week?lang=fr", nil, 400, "invalid value for query argument 'lang': 'fr' (use en or ko)"),
        ("PUT", "/v1/settings", #"{"timeZone":"Mars/Olympus"}"#, 400, "unknown time zone 'Mars/Olympus'"),
        ("POST", "/v1/habits", "{\"name\":\"" + String(repeating: "x", count: 2_000) + "\"}", 413, "over the server's limit"),
    ] as [(String, String, String?, Int, String)])
    func badRequests(method: String, path: String, body: String?, status: Int, message: String) throws {
        let (cli, server, ana, _) = try serve(["--max-body", "1000"])
        defer { server.stop() }
        #expect(try server.client.send("POST", "/v1/habits", token: ana, body: #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let answer = try server.client.send(method, path, token: ana, body: body)
        #expect(answer.status == status, "\(method) \(path): \(answer.status) \(answer.body)")
        #expect(answer.body.hasPrefix("{\"error\":") && (message.isEmpty || answer.body.contains(message)), "\(answer.body)")
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
    }

    @Test("a read repeated is the same answer; a write from another process (the command line) shows in the next read")
    func answersFollowWrites() throws {
        let (cli, server, ana, bob) = try serve()
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let first = try client.send("GET", "/v1/today", token: ana).body
        #expect(try client.send("GET", "/v1/today", token: ana).body == first)
        #expect(try client.send("GET", "/v1/today", token: bob).body == "{\"day\":\"2026-10-11\",\"groups\":[],\"habits\":[]}\n")
        #expect(try cli.run(["--user", "ana", "record", "read"]).status == 0)
        let second = try client.send("GET", "/v1/today", token: ana).body
        let printed = try cli.run(["--user", "ana", "--tz", "+09:00", "--json", "today"]).stdout
        #expect(second != first && second == printed)
        #expect(try cli.run(["--user", "ana", "habit", "rename", "read", "books"]).status == 0)
        #expect(try client.send("GET", "/v1/habits", token: ana).body.contains(#""name":"books""#))
        #expect(try client.send("GET", "/v1/habits/read", token: ana).status == 404)
    }

    @Test("settings move a user's days: the same instant falls on another day in another time zone")
    func settings() throws {
        let (_, server, ana, _) = try serve()
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("GET", "/v1/today", token: ana).body.hasPrefix(#"{"day":"2026-10-11""#))
        let changed = try client.send("PUT", "/v1/settings", token: ana, body: #"{"timeZone":"America/Los_Angeles","dayStartsAt":"04:00"}"#)
        #expect(changed.status == 200 && changed.body.contains(#""timeZone":"America/Los_Angeles""#) && changed.body.contains(#""dayStartsAt":"04:00""#))
        // 2026-10-11T22:00+09:00 is 06:00 on the 11th in Los Angeles, after a 04:00 day start.
        #expect(try client.send("GET", "/v1/today", token: ana).body.hasPrefix(#"{"day":"2026-10-11""#))
        #expect(try client.send("PUT", "/v1/settings", token: ana, body: #"{"dayStartsAt":"07:00"}"#).status == 200)
        #expect(try client.send("GET", "/v1/today", token: ana).body.hasPrefix(#"{"day":"2026-10-10""#))
    }

    @Test("SIGTERM ends the server with exit 0; a stalled connection is closed; oversized headers are refused; 200 open connections do not stop a new client")
    func operations() throws {
        let (_, server, _, _) = try serve(["--idle-timeout", "1", "--threads", "2"])
        let client = server.client
        // A client that sends half a request and waits is cut off after the idle timeout.
        let stalled = try client.connect()
        try client.write(stalled, Array("GET /healthz HTTP/1.1\r\nHost: x\r\n".utf8))
        let started = Date()
        var byte: UInt8 = 0
        let read = recv(stalled, &byte, 1, 0)
        close(stalled)
        #expect(read <= 0 && Date().timeIntervalSince(started) < 10, "the stalled connection stayed open")
        // Headers past the per-connection bound are refused, and the server goes on answering.
        let huge = try client.send("GET", "/healthz", headers: ["X-Padding": String(repeating: "a", count: 100_000)])
        #expect(huge.status == 431, "\(huge.status)")
        // Connections held open without a request do not keep a new client from being answered:
        // one address holds at most --connections-per-address of them.
        var held: [Int32] = []
        defer { held.forEach { close($0) } }
        for _ in 0..<200 { held.append(try client.connect()) }
        #expect(try HTTPClient(port: server.port, sourceAddress: "127.0.0.2").send("GET", "/healthz").body == "ok\n")
        #expect(server.stop() == 0)
        #expect(server.log().contains("SIGTERM"))
    }
}

/// The versioned-policy and editing endpoints, each against its command-line twin.
@Suite("stackday serve: policies and edits")
struct ServePolicyTests {
    let counting = """
        return {
          description = "counts met days; misses do not break it",
          streak = function(state, day, outcome)
            if outcome.met then state.current = state.current + 1; state.longest = math.max(state.longest, state.current) end
            return state
          end,
          examples = { { history = "YNY", current = 2, longest = 2 } },
        }
        """

    @Test("edit, calendar, revisions, rollback and simulate answer what the command line prints; a taken name changes nothing")
    func edits() throws {
        let (cli, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"read","start":"2026-10-01","streak":"grace"}"#).status == 201)
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"gym","start":"2026-10-01"}"#).status == 201)
        for day in [1, 2, 3, 5, 6, 8, 9] {
            #expect(try client.send("POST", "/v1/habits/read/records", token: ana, body: #"{"on":"2026-10-0\#(day)"}"#).status == 201)
        }
        let taken = try client.send("PATCH", "/v1/habits/read", token: ana, body: #"{"name":"gym","goal":2,"from":"2026-10-05"}"#)
        #expect(taken.status == 409 && taken.body.contains("gym"), "\(taken.body)")
        #expect(try client.send("GET", "/v1/habits/read/revisions", token: ana).body.contains(#""revisions":[{"#))
        #expect(!(try client.send("GET", "/v1/habits/read/revisions", token: ana).body.contains(#""revision":2"#)))
        let edited = try client.send("PATCH", "/v1/habits/read", token: ana, body: #"{"name":"books","streak":"strict","from":"2026-10-05"}"#)
        #expect(edited.status == 200 && edited.body.contains(#""name":"books""#), "\(edited.body)")
        let pairs: [(String, String, [String])] = [
            ("GET", "/v1/habits/books", ["habit", "show", "books"]),
            ("GET", "/v1/calendar/books?from=2026-10-01&to=2026-10-11", ["calendar", "books", "--from", "2026-10-01", "--to", "2026-10-11"]),
            ("GET", "/v1/habits/books/revisions", ["policy", "history", "books"]),
        ]
        for (method, path, command) in pairs {
            let answer = try client.send(method, path, token: ana)
            let expected = try cli.run(["--user", "ana", "--tz", "+09:00", "--json"] + command).stdout
            #expect(answer.status == 200 && answer.body == expected, "\(path): \(answer.body)")
        }
        let simulated = try client.send("POST", "/v1/habits/books/simulate", token: ana, body: #"{"policy":"grace","role":"streak"}"#)
        let printed = try cli.run(["--user", "ana", "--tz", "+09:00", "--json", "policy", "simulate", "grace", "--habit", "books", "--role", "streak"])
        #expect(simulated.status == 200 && simulated.body == printed.stdout, "\(simulated.body)")
        let rolled = try client.send("POST", "/v1/habits/books/rollback", token: ana, body: #"{"from":"2026-10-05"}"#)
        #expect(rolled.status == 201 && rolled.body.contains(#""revision":3"#) && rolled.body.contains(#""name":"grace""#), "\(rolled.body)")
        #expect(try client.send("POST", "/v1/habits/books/simulate", token: ana, body: #"{"policy":"grace","role":"sideways"}"#).status == 400)
    }

    @Test("a policy installed over HTTP is vetted, listed, served back, used by its user's habits, and by nobody else's")
    func policies() throws {
        let (_, server, ana, bob) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        let wrong = counting.replacingOccurrences(of: "current = 2, longest = 2", with: "current = 5, longest = 2")
        let refused = try client.send("PUT", "/v1/policies/counting", token: ana, body: wrong)
        #expect(refused.status == 422 && refused.body.contains(#""failures":["#) && refused.body.contains("example 1"), "\(refused.body)")
        #expect(!(try client.send("GET", "/v1/policies", token: ana).body.contains(#""name":"counting""#)))
        let installed = try client.send("PUT", "/v1/policies/counting", token: ana, body: counting)
        #expect(installed.status == 201 && installed.body.contains(#""sha256":""#), "\(installed.body)")
        #expect(try client.send("GET", "/v1/policies", token: ana).body.contains(#""name":"counting","roles":["streak"],"sha256":"#))
        #expect(try client.send("GET", "/v1/policies", token: ana).body.contains(#""source":"installed""#))
        let served = try client.send("GET", "/v1/policies/counting", token: ana)
        #expect(served.status == 200 && served.body.contains("counts met days"), "\(served.body)")
        let created = try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"walk","start":"2026-10-01","streak":"counting"}"#)
        #expect(created.status == 201 && created.body.contains(#""name":"counting""#), "\(created.body)")
        #expect(try client.send("GET", "/v1/policies/counting", token: bob).status == 404)
        let bobs = try client.send("GET", "/v1/policies", token: bob).body
        #expect(!bobs.contains(#""name":"counting""#) && bobs.contains(#""name":"strict""#) && !bobs.contains("policies/"), "\(bobs)")
        let foreign = try client.send("POST", "/v1/habits", token: bob, body: #"{"name":"walk","start":"2026-10-01","streak":"counting"}"#)
        #expect(foreign.status == 422 && foreign.body.contains("no such policy"), "\(foreign.status) \(foreign.body)")
        #expect(try client.send("PUT", "/v1/policies/counting", token: bob, body: "").status == 400)
    }
}

/// Several servers, and several users on one server.
@Suite("stackday serve: scale and isolation")
struct ServeScaleTests {
    @Test("two servers on one PostgreSQL database, requests for one user spread over both, give the figures one process gives")
    func twoServers() throws {
        let database = try commandServer.get()
        let name = "serve_" + UUID().uuidString.prefix(8).lowercased()
        try database.psql("CREATE DATABASE \(name)")
        let url = database.url(database: name)
        let cli = try CLIFixture(now: ServeCommandTests.now, database: url, user: "ana")
        let token = try cli.run(["--tz", "+09:00", "user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        let arguments = ["--database", url, "--now", ServeCommandTests.now, "--policies", cli.folder.path("policies")]
        let first = try ServerProcess(executable: stackday.executable, arguments: arguments)
        let second = try ServerProcess(executable: stackday.executable, arguments: arguments)
        defer { first.stop(); second.stop() }
        let servers = [first.client, second.client]
        for (index, habit) in ["read", "gym", "water"].enumerated() {
            let body = #"{"name":"\#(habit)","start":"2026-09-20","goal":\#(index + 1),"streak":"\#(index == 1 ? "grace" : "strict")"}"#
            #expect(try servers[index % 2].send("POST", "/v1/habits", token: token, body: body).status == 201)
        }
        var request = 0
        for day in 20...30 {
            for habit in ["read", "gym", "water"] where (day + habit.count) % 3 != 0 {
                let answer = try servers[request % 2].send("POST", "/v1/habits/\(habit)/records", token: token, body: #"{"amount":2,"on":"2026-09-\#(day)"}"#)
                #expect(answer.status == 201, "\(answer.body)")
                request += 1
                // Each server reads between the other's writes, so both keep cached figures that the writes must invalidate.
                _ = try servers[request % 2].send("GET", "/v1/stats", token: token)
            }
        }
        #expect(try servers[0].send("DELETE", "/v1/habits/gym/records/latest?on=2026-09-29", token: token).status == 200)
        let expected = try cli.run(["--tz", "+09:00", "--json", "stats"]).stdout
        let today = try cli.run(["--tz", "+09:00", "--json", "today"]).stdout
        for client in servers {
            #expect(try client.send("GET", "/v1/stats", token: token).body == expected)
            #expect(try client.send("GET", "/v1/today", token: token).body == today)
        }
        #expect(try cli.run(["--tz", "+09:00", "--no-cache", "--json", "stats"]).stdout == expected)
    }

    @Test("one user's runaway policy answers that user 422 within its budget; another user's requests meanwhile are answered")
    func runawayPolicy() throws {
        let (_, server, ana, bob) = try ServeCommandTests().serve(["--threads", "4"])
        defer { server.stop() }
        let client = server.client
        let spin = "return { streak = function(state, day, outcome) while true do end end }\n"
        #expect(try client.send("PUT", "/v1/policies/spin", token: ana, body: spin).status == 201)
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"loop","start":"2026-10-01","streak":"spin"}"#).status == 201)
        #expect(try client.send("POST", "/v1/habits", token: bob, body: #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let slow = DispatchGroup()
        nonisolated(unsafe) var anaStatus = 0
        DispatchQueue.global().async(group: slow) {
            anaStatus = (try? client.send("GET", "/v1/habits/loop", token: ana).status) ?? -1
        }
        let started = Date()
        for _ in 0..<5 {
            #expect(try client.send("GET", "/v1/today", token: bob).status == 200)
        }
        let bobSeconds = Date().timeIntervalSince(started)
        #expect(slow.wait(timeout: .now() + 30) == .success)
        #expect(anaStatus == 422, "the runaway policy answered \(anaStatus)")
        #expect(bobSeconds < 5, "bob waited \(bobSeconds) s")
    }

    @Test("the server's own sender thread delivers a record to a receiver on this machine (--allow-local-webhooks), signed, within seconds")
    func webhookSent() throws {
        let (_, server, ana, _) = try ServeCommandTests().serve(["--allow-local-webhooks"])
        defer { server.stop() }
        let receiver = try WebhookReceiver()
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"water","start":"2026-10-01"}"#).status == 201)
        let created = try client.send("POST", "/v1/webhooks", token: ana, body: #"{"url":"\#(receiver.url())","events":["record"]}"#)
        #expect(created.status == 201, "\(created.body)")
        #expect(try client.send("POST", "/v1/habits/water/records", token: ana, body: "{}").status == 201)
        let waited = Date()
        while receiver.received.isEmpty, Date().timeIntervalSince(waited) < 10 { usleep(50_000) }
        let got = try #require(receiver.received.first, "nothing delivered in 10 s: \(server.log())")
        #expect(got.headers["x-stackday-event"] == "record" && got.headers["x-stackday-signature"]?.hasPrefix("sha256=") == true)
        #expect(String(decoding: got.body, as: UTF8.self).contains(#""habit":"water""#))
    }

    @Test("SIGTERM while a request is running: that request is answered, then the server exits 0")
    func drainOnStop() throws {
        let (_, server, ana, _) = try ServeCommandTests().serve()
        let client = server.client
        let spin = "return { streak = function(state, day, outcome) while true do end end }\n"
        #expect(try client.send("PUT", "/v1/policies/spin", token: ana, body: spin).status == 201)
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"loop","start":"2026-10-01","streak":"spin"}"#).status == 201)
        let running = DispatchGroup()
        nonisolated(unsafe) var status = 0
        DispatchQueue.global().async(group: running) {
            status = (try? client.send("GET", "/v1/habits/loop", token: ana).status) ?? -1
        }
        // Wait until the request is in the server: the policy runner it calls spins through the
        // budget, so the CPU time of the server and its runner processes grows.
        func cpuTicks(_ pid: Int32) -> Int {
            let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
            let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
            return fields.count > 13 ? (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0) : 0
        }
        func cpuTicks() -> Int {
            let server = server.process.processIdentifier
            let children = ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(server)/task")) ?? []).flatMap { task in
                ((try? String(contentsOfFile: "/proc/\(server)/task/\(task)/children", encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0) }
            }
            return cpuTicks(server) + children.map(cpuTicks).reduce(0, +)
        }
        let idle = cpuTicks()
        let waited = Date()
        while cpuTicks() < idle + 5, Date().timeIntervalSince(waited) < 10 { usleep(10_000) }
        #expect(server.stop() == 0)
        #expect(running.wait(timeout: .now() + 30) == .success)
        #expect(status == 422, "the request in flight got \(status)")
    }
}
