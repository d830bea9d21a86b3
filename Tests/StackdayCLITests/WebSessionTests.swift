import Foundation
import Testing
import StackDayTestSupport

/// The web app's sessions, CSRF and language, against `stackday serve` as a real process.
@Suite("web app: sessions, CSRF and language")
struct WebSessionTests {
    /// Signs in with `token`; the cookie pair (`stackday_session=…`) and the whole Set-Cookie line.
    func signIn(_ client: HTTPClient, _ token: String, headers: [String: String] = [:]) throws -> (cookie: String, line: String) {
        let answer = try client.send("POST", "/session", body: "token=\(token)", headers: headers)
        #expect(answer.status == 303, "\(answer.status) \(answer.body)")
        let line = answer.headers["set-cookie"] ?? ""
        return (String(line.prefix { $0 != ";" }), line)
    }

    /// Today's page and the CSRF token its forms carry.
    func today(_ client: HTTPClient, _ cookie: String, headers: [String: String] = [:]) throws -> (page: String, csrf: String) {
        let page = try client.send("GET", "/", headers: headers.merging(["Cookie": cookie]) { $1 }).body
        let csrf = page.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/).map { String($0.1) } ?? ""
        return (page, csrf)
    }

    @Test("the cookie is a random session id, never the token: HttpOnly, SameSite=Lax, lasting --session-days, Secure behind a TLS proxy")
    func cookie() throws {
        let (_, server, ana, _) = try ServeCommandTests().serve(["--session-days", "7"])
        defer { server.stop() }
        let client = server.client
        let (cookie, line) = try signIn(client, ana)
        #expect(cookie.hasPrefix("stackday_session=ss_") && !line.contains(ana), "\(line)")
        #expect(line.contains("HttpOnly") && line.contains("SameSite=Lax") && line.contains("Max-Age=604800") && !line.contains("Secure"), "\(line)")
        let proxied = try signIn(client, ana, headers: ["X-Forwarded-Proto": "https"]).line
        #expect(proxied.contains("; Secure"), "\(proxied)")
        // Two sign-ins, two sessions.
        #expect(try signIn(client, ana).cookie != cookie)
        #expect(try today(client, cookie).page.contains(#"<strong id="user">ana</strong>"#))
        let wrong = try client.send("POST", "/session", body: "token=sd_" + String(repeating: "0", count: 64))
        #expect(wrong.status == 401 && wrong.headers["set-cookie"] == nil)
    }

    /// A server with users ana and bob, ana's habit `water` (8 a day), and ana signed in.
    func serveWater() throws -> (CLIFixture, ServerProcess, ana: String, bob: String, cookie: String) {
        let (cli, server, ana, bob) = try ServeCommandTests().serve()
        #expect(try server.client.send("POST", "/v1/habits", token: ana, body: #"{"name":"water","goal":8,"start":"2026-10-01"}"#).status == 201)
        return (cli, server, ana, bob, try signIn(server.client, ana).cookie)
    }

    @Test("a form without the session's CSRF token, with another session's, or from another origin is 403 and writes nothing")
    func csrf() throws {
        let (cli, server, ana, bob, cookie) = try serveWater()
        defer { server.stop() }
        let client = server.client
        let csrf = try today(client, cookie).csrf
        let other = try today(client, try signIn(client, bob).cookie).csrf
        #expect(csrf.count == 64 && other.count == 64 && csrf != other)
        let before = try cli.run(["--user", "ana", "export", "--format", "json"]).stdout
        let refused: [(String, [String: String])] = [
            ("amount=3", [:]),
            ("amount=3&csrf=\(other)", [:]),
            ("amount=3&csrf=\(csrf)", ["Origin": "http://evil.example"]),
            ("amount=3&csrf=", [:]),
        ]
        for (body, headers) in refused {
            let answer = try client.send("POST", "/habits/water/record", body: body, headers: headers.merging(["Cookie": cookie]) { $1 })
            #expect(answer.status == 403 && answer.body.contains("forbidden"), "\(body) \(headers): \(answer.status)")
        }
        // Signing out needs the token too: a page elsewhere cannot end the session.
        #expect(try client.send("POST", "/session/end", body: "", headers: ["Cookie": cookie]).status == 403)
        #expect(try client.send("POST", "/session", body: "token=\(ana)", headers: ["Origin": "http://evil.example"]).status == 403)
        #expect(try cli.run(["--user", "ana", "export", "--format", "json"]).stdout == before)
        let accepted = try client.send("POST", "/habits/water/record", body: "amount=3&csrf=\(csrf)",
                                       headers: ["Cookie": cookie, "Origin": "http://127.0.0.1:\(server.port)"])
        #expect(accepted.status == 303 && accepted.headers["location"] == "/", "\(accepted.status) \(accepted.body)")
        #expect(try today(client, cookie).page.contains(#"<span data-field="total">3/8</span>"#))
    }

    @Test("a form's back field leads only to a path of this server: a backslash, a tab or a second slash that a browser reads as another site is ignored")
    func backStaysHere() throws {
        let (_, server, _, _, cookie) = try serveWater()
        defer { server.stop() }
        let client = server.client
        let csrf = try today(client, cookie).csrf
        // Form-encoded: `/\evil.example/`, `/<TAB>/evil.example`, `//evil.example`, `/<LF>/evil.example`, an absolute URL.
        for back in ["/%5Cevil.example/", "/%09/evil.example", "//evil.example", "/%0A/evil.example", "https://evil.example/", "%2F%5Cevil"] {
            let answer = try client.send("POST", "/habits/water/record", body: "amount=1&back=\(back)&csrf=\(csrf)", headers: ["Cookie": cookie])
            #expect(answer.status == 303 && answer.headers["location"] == "/", "\(back): \(answer.status) \(answer.headers["location"] ?? "")")
        }
        let own = try client.send("POST", "/habits/water/record", body: "amount=1&back=%2Fhabits%2Fwater%3Fday%3D2026-10-11%23records&csrf=\(csrf)",
                                  headers: ["Cookie": cookie])
        #expect(own.status == 303 && own.headers["location"] == "/habits/water?day=2026-10-11#records", "\(own.headers["location"] ?? "")")
    }

    @Test("a session ends when it expires, when its user signs out, and when `stackday user token` gives the user a new token")
    func expiry() throws {
        let cli = try CLIFixture(now: ServeCommandTests.now)
        let ana = try cli.run(["user", "add", "ana"]).stdout.trimmingCharacters(in: .newlines)
        func serve(_ now: String) throws -> ServerProcess {
            try ServerProcess(executable: stackday.executable, arguments: ["--db", cli.db, "--now", now, "--policies", cli.folder.path("policies")],
                              serveArguments: ["--session-days", "1"])
        }
        var cookies: [String] = []
        do {
            let server = try serve(ServeCommandTests.now)
            defer { server.stop() }
            cookies = try (0..<3).map { _ in try signIn(server.client, ana).cookie }
            #expect(try today(server.client, cookies[0]).page.contains(#"id="user""#))
            // Signing out ends that session only.
            let csrf = try today(server.client, cookies[0]).csrf
            let out = try server.client.send("POST", "/session/end", body: "csrf=\(csrf)", headers: ["Cookie": cookies[0]])
            #expect(out.status == 303 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(try today(server.client, cookies[0]).page.contains(#"id="token""#))
            #expect(try today(server.client, cookies[1]).page.contains(#"id="user""#))
        }
        do {
            // 25 hours later: a one-day session is over.
            let server = try serve("2026-10-12T23:00:00+09:00")
            defer { server.stop() }
            let page = try today(server.client, cookies[1]).page
            #expect(page.contains(#"id="token""#) && !page.contains(#"id="user""#))
            let fresh = try signIn(server.client, ana).cookie
            #expect(try cli.run(["user", "token", "ana"]).status == 0)
            #expect(try today(server.client, fresh).page.contains(#"id="token""#), "a new token left an old session open")
        }
    }

    @Test("the pages speak the user's language: the setting, else Accept-Language; <html lang> says which")
    func language() throws {
        let (_, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        #expect(try client.send("POST", "/v1/habits", token: ana, body: #"{"name":"gym","schedule":"times-per-week","scheduleParams":{"times":3},"start":"2026-10-01"}"#).status == 201)
        let (cookie, _) = try signIn(client, ana)
        let korean = try today(client, cookie, headers: ["Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"]).page
        #expect(korean.contains(#"<html lang="ko">"#) && korean.contains("로그아웃") && korean.contains("이번 주 3회 중 0회") && korean.contains("습관 추가"), "\(korean.prefix(600))")
        let english = try today(client, cookie, headers: ["Accept-Language": "en-US"]).page
        #expect(english.contains(#"<html lang="en">"#) && english.contains("0 of 3 this week") && english.contains("Sign out"))
        let set = try client.send("PUT", "/v1/settings", token: ana, body: #"{"language":"ko"}"#)
        #expect(set.status == 200 && set.body.contains(#""language":"ko""#), "\(set.body)")
        #expect(try today(client, cookie, headers: ["Accept-Language": "en-US"]).page.contains(#"<html lang="ko">"#))
        let refused = try client.send("PUT", "/v1/settings", token: ana, body: #"{"language":"fr"}"#)
        #expect(refused.status == 400 && refused.body.contains("unknown language 'fr'"))
        let page = try client.send("GET", "/habits/gym", headers: ["Cookie": cookie]).body
        #expect(page.contains(#"<html lang="ko">"#) && page.contains("현재 연속") && page.contains("범례"), "\(page.prefix(400))")
    }

    @Test("/today.html answers 304 for the ETag it gave until something is written, then the new cards")
    func polling() throws {
        let (_, server, ana, _, cookie) = try serveWater()
        defer { server.stop() }
        let client = server.client
        let first = try client.send("GET", "/today.html", headers: ["Cookie": cookie])
        let etag = try #require(first.headers["etag"])
        #expect(first.status == 200 && first.body.contains(#"data-habit="water""#))
        #expect(try client.send("GET", "/today.html", headers: ["Cookie": cookie, "If-None-Match": etag]).status == 304)
        #expect(try client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":2}"#).status == 201)
        let after = try client.send("GET", "/today.html", headers: ["Cookie": cookie, "If-None-Match": etag])
        #expect(after.status == 200 && after.headers["etag"] != etag && after.body.contains(#"<span data-field="total">2/8</span>"#))
        #expect(try client.send("GET", "/today.html").status == 303)
    }

    @Test("today's page for 20 habits, with its stylesheet and script, is under 100 KB")
    func weight() throws {
        let (_, server, ana, _) = try ServeCommandTests().serve()
        defer { server.stop() }
        let client = server.client
        for index in 0..<20 {
            let body = #"{"name":"habit \#(index)","goal":\#(index % 3 + 1),"schedule":"\#(index % 2 == 0 ? "daily" : "3 times a week")","start":"2026-01-01"}"#
            #expect(try client.send("POST", "/v1/habits", token: ana, body: body).status == 201)
        }
        let (cookie, _) = try signIn(client, ana)
        let page = try client.send("GET", "/", headers: ["Cookie": cookie])
        #expect(page.body.components(separatedBy: "<li class=\"habit\"").count == 21)
        let weight = try ["/", "/app.css", "/app.js"].reduce(0) { $0 + (try client.send("GET", $1, headers: ["Cookie": cookie]).body.utf8.count) }
        #expect(weight < 100_000, "\(weight) bytes")
    }
}
