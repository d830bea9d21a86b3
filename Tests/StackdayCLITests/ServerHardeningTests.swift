import Foundation
import Testing
import StackDayTestSupport

/// HTTP strictness, names that could forge logs or collide, and stores that come back.
@Suite("stackday serve: strict HTTP, safe names, stores that recover")
struct ServerHardeningTests {
    func serve(_ extra: [String] = []) throws -> (CLIFixture, ServerProcess, ana: String) {
        let (cli, server, ana, _) = try ServeCommandTests().serve(extra)
        return (cli, server, ana)
    }

    @Test("Content-Length headers that disagree, and an HTTP/1.1 request without Host or with two are a 400 that writes nothing")
    func strictHeaders() throws {
        let (cli, server, ana) = try serve()
        defer { server.stop() }
        let client = server.client
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let body = #"{"name":"smuggled"}"#
        let conflicting = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ana)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Content-Length: 5\r\nConnection: close\r\n\r\n" + body
        let answered = try HTTPClient.parse(try client.exchange(Array(conflicting.utf8)))
        #expect(answered.status == 400 && answered.body.contains("Content-Length headers that disagree"), "\(answered.status) \(answered.body)")
        let hostless = try HTTPClient.parse(try client.exchange(Array("GET /v1/today HTTP/1.1\r\nAuthorization: Bearer \(ana)\r\nConnection: close\r\n\r\n".utf8)))
        #expect(hostless.status == 400 && hostless.body.contains("Host header"), "\(hostless.status) \(hostless.body)")
        // Two Host headers: a proxy and the server could each read another.
        let hosts = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nHost: evil.example\r\nAuthorization: Bearer \(ana)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Connection: close\r\n\r\n" + body
        let twoHosts = try HTTPClient.parse(try client.exchange(Array(hosts.utf8)))
        #expect(twoHosts.status == 400 && twoHosts.body.contains("more than one Host"), "\(twoHosts.status) \(twoHosts.body)")
        // HTTP/1.0 has no Host requirement; the same value twice is no conflict.
        #expect(try HTTPClient.parse(try client.exchange(Array("GET /healthz HTTP/1.0\r\n\r\n".utf8))).status == 200)
        let twice = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ana)\r\nContent-Length: \(body.utf8.count)\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
        #expect(try HTTPClient.parse(try client.exchange(Array(twice.utf8))).status == 201)
    }

    @Test("Content-Length with Transfer-Encoding is a 400 that closes the connection: a request smuggled after the chunks is never answered")
    func smuggling() throws {
        let (cli, server, ana) = try serve()
        defer { server.stop() }
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let body = #"{"name":"smuggled"}"#
        let chunked = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        let second = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ana)\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body
        let request = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ana)\r\nContent-Length: \(chunked.utf8.count)\r\n"
            + "Transfer-Encoding: chunked\r\n\r\n" + chunked + second
        let answer = String(decoding: try server.client.exchange(Array(request.utf8)), as: UTF8.self)
        #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer, then the connection closed: \(answer)")
        #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("both Content-Length and Transfer-Encoding"), "\(answer)")
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
    }

    @Test("two Transfer-Encoding headers, or a coding but a lone chunked, are a 400 and store nothing", arguments: [
        "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n", "Transfer-Encoding: gzip, chunked\r\n",
    ])
    func transferCodings(headers: String) throws {
        let (cli, server, ana) = try serve()
        defer { server.stop() }
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let body = #"{"name":"coded"}"#
        let chunked = String(body.utf8.count, radix: 16) + "\r\n" + body + "\r\n0\r\n\r\n"
        let request = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ana)\r\n" + headers + "\r\n" + chunked
        let answer = String(decoding: try server.client.exchange(Array(request.utf8)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 400") && answer.contains("Transfer-Encoding must be one header saying chunked"), "\(answer)")
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
    }

    @Test("a CR or another control character inside a header is a 400 that closes the connection; a tab and UTF-8 are not", arguments: [
        ("X-Note: a\rGET /v1/habits HTTP/1.1", 400), ("X-Note: a\u{01}b", 400), ("X-Note: a\u{7F}b", 400), ("X-Note: a\tb", 201),
        ("X-Note: 물 마시기", 201),
    ])
    func controlInHeader(header: String, status: Int) throws {
        let (cli, server, ana) = try serve()
        defer { server.stop() }
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let body = #"{"name":"headed"}"#
        let request = "POST /v1/habits HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(ana)\r\n\(header)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body
        let answer = String(decoding: try server.client.exchange(Array(request.utf8)), as: UTF8.self)
        #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(answer)")
        if status == 400 {
            #expect(answer.contains("control character") && answer.contains("Connection: close"), "\(answer)")
            #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
        }
    }

    @Test("a habit name with a control character is refused by the command line too; nothing is written")
    func controlCharactersOnTheCommandLine() throws {
        let cli = try CLIFixture()
        let added = try cli.run(["habit", "add", "tab\there"])
        #expect(added.status == 1 && added.stderr.contains("control characters"), "\(added.stderr)")
        #expect(try cli.run(["habit", "list", "--json"]).stdout.contains(#""habits":[]"#))
    }

    @Test("a calendar or report asked for far ahead, or over more than ten years, is a 400; the CLI refuses the same")
    func boundedReads() throws {
        let (cli, server, ana) = try serve()
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"read","start":"0001-01-01"}"#).status == 201)
        for path in ["/v1/report/week?weekOf=9999-12-31", "/v1/calendar/read?to=9999-12-31", "/v1/calendar/read?from=0001-01-01"] {
            let answer = try client.send("GET", path, token: ana)
            #expect(answer.status == 400 && answer.body.utf8.count < 400, "\(path): \(answer.status) \(answer.body.prefix(200))")
        }
        // The habit begun in year 1 is evaluated whole (740,000 days) within the runner's allowance.
        let recent = try client.send("GET", "/v1/calendar/read?from=2020-01-01", token: ana)
        #expect(recent.status == 200 && !recent.body.contains("\"error\""), "\(recent.body.prefix(300))")
        let far = try cli.run(["--user", "ana", "report", "week", "--week-of", "9999-12-31"])
        #expect(far.status == 1 && far.stderr.contains("too far ahead"), "\(far.stderr)")
        let wide = try cli.run(["--user", "ana", "calendar", "read", "--from", "0001-01-01", "--json"])
        #expect(wide.status == 1 && wide.stderr.contains("at most 3660"), "\(wide.stderr)")
    }

    @Test("PostgreSQL stopped and started under a running server: requests fail while it is down and succeed once it is back")
    func postgresRestart() throws {
        let database = try PostgresServer()
        let cli = try CLIFixture(now: ServeCommandTests.now, database: database.url, user: "ana")
        let token = try cli.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        let server = try ServerProcess(executable: stackday.executable,
                                       arguments: ["--database", database.url, "--now", ServeCommandTests.now, "--policies", cli.folder.path("policies")],
                                       serveArguments: ["--threads", "2"])
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: token, body: #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        try database.stop()
        for _ in 0..<4 {
            let failed = try client.send("POST", "/v1/habits/read/records", token: token, body: #"{"amount":1}"#)
            #expect(failed.status >= 500, "\(failed.status) \(failed.body)")
        }
        try database.start()
        var statuses: [Int] = []
        for day in 1...8 {
            statuses.append(try client.send("POST", "/v1/habits/read/records", token: token, body: #"{"amount":1,"on":"2026-10-0\#(day)"}"#).status)
        }
        #expect(statuses.allSatisfy { $0 == 201 }, "\(statuses)")
        #expect(try client.send("GET", "/healthz").status == 200)
    }
}
