import Foundation
@testable import StackDayServer
import Testing

/// The web app's CSRF checks, form redirects, language, polling and page weight, through the
/// pipeline in process. (The session cookie's attributes and a session's end across server
/// starts are checked on a real server, in `StackdayCLITests/WebSessionTests`.)
@Suite("web app in process: CSRF, redirects, language, polling, weight")
struct WebSessionTests {
    /// A server with users ana and bob; their tokens.
    func serve() throws -> (InProcessServer, String, String) {
        let server = try InProcessServer()
        return (server, try server.user("ana"), try server.user("bob"))
    }

    /// Signs in with `token`; the cookie pair (`stackday_session=…`).
    func signIn(_ client: InProcessServer, _ token: String) -> String {
        let answer = client.send("POST", "/session", body: "token=\(token)", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(answer.status == 303, "\(answer.status) \(answer.body)")
        return String((answer.headers["set-cookie"] ?? "").prefix { $0 != ";" })
    }

    /// Today's page and the CSRF token its forms carry.
    func today(_ client: InProcessServer, _ cookie: String, headers: [String: String] = [:]) -> (page: String, csrf: String) {
        let page = client.send("GET", "/", headers: headers.merging(["Cookie": cookie]) { $1 }).body
        let csrf = page.firstMatch(of: /name="csrf" value="([0-9a-f]+)"/).map { String($0.1) } ?? ""
        return (page, csrf)
    }

    /// A server with users ana and bob, ana's habit `water` (8 a day), and ana signed in.
    func serveWater() throws -> (InProcessServer, ana: String, bob: String, cookie: String) {
        let (server, ana, bob) = try serve()
        #expect(server.send("POST", "/v1/habits", token: ana, body: #"{"name":"water","goal":8,"start":"2026-10-01"}"#).status == 201)
        return (server, ana, bob, signIn(server, ana))
    }

    @Test("a form without the session's CSRF token, with another session's, or from another origin is 403 and writes nothing")
    func csrf() throws {
        let (client, ana, bob, cookie) = try serveWater()
        let csrf = today(client, cookie).csrf
        let other = today(client, signIn(client, bob)).csrf
        #expect(csrf.count == 64 && other.count == 64 && csrf != other)
        let before = client.send("GET", "/v1/habits/water/records", token: ana).body
        let refused: [(String, [String: String])] = [
            ("amount=3", [:]),
            ("amount=3&csrf=\(other)", [:]),
            ("amount=3&csrf=\(csrf)", ["Origin": "http://evil.example"]),
            ("amount=3&csrf=", [:]),
        ]
        for (body, headers) in refused {
            let answer = client.send("POST", "/habits/water/record", body: body, headers: headers.merging(["Cookie": cookie]) { $1 })
            #expect(answer.status == 403 && answer.body.contains("forbidden"), "\(body) \(headers): \(answer.status)")
        }
        // Signing out needs the token too: a page elsewhere cannot end the session.
        #expect(client.send("POST", "/session/end", body: "", headers: ["Cookie": cookie]).status == 403)
        #expect(client.send("POST", "/session", body: "token=\(ana)", headers: ["Origin": "http://evil.example"]).status == 403)
        #expect(client.send("GET", "/v1/habits/water/records", token: ana).body == before, "nothing written")
        let accepted = client.send("POST", "/habits/water/record", body: "amount=3&csrf=\(csrf)",
                                       headers: ["Cookie": cookie, "Origin": "http://127.0.0.1"])
        #expect(accepted.status == 303 && accepted.headers["location"] == "/", "\(accepted.status) \(accepted.body)")
        #expect(today(client, cookie).page.contains(#"<span data-field="total">3/8</span>"#))
    }

    @Test("a form's back field leads only to a path of this server: a backslash, a tab or a second slash that a browser reads as another site is ignored")
    func backStaysHere() throws {
        let (client, _, _, cookie) = try serveWater()
        let csrf = today(client, cookie).csrf
        // Form-encoded: `/\evil.example/`, `/<TAB>/evil.example`, `//evil.example`, `/<LF>/evil.example`, an absolute URL.
        for back in ["/%5Cevil.example/", "/%09/evil.example", "//evil.example", "/%0A/evil.example", "https://evil.example/", "%2F%5Cevil"] {
            let answer = client.send("POST", "/habits/water/record", body: "amount=1&back=\(back)&csrf=\(csrf)", headers: ["Cookie": cookie])
            #expect(answer.status == 303 && answer.headers["location"] == "/", "\(back): \(answer.status) \(answer.headers["location"] ?? "")")
        }
        let own = client.send("POST", "/habits/water/record", body: "amount=1&back=%2Fhabits%2Fwater%3Fday%3D2026-10-11%23records&csrf=\(csrf)",
                                  headers: ["Cookie": cookie])
        #expect(own.status == 303 && own.headers["location"] == "/habits/water?day=2026-10-11#records", "\(own.headers["location"] ?? "")")
    }

    @Test("the pages speak the user's language: the setting, else Accept-Language; <html lang> says which")
    func language() throws {
        let (client, ana, _) = try serve()
        #expect(client.send("POST", "/v1/habits", token: ana, body: #"{"name":"gym","schedule":"times-per-week","scheduleParams":{"times":3},"start":"2026-10-01"}"#).status == 201)
        let cookie = signIn(client, ana)
        let korean = today(client, cookie, headers: ["Accept-Language": "ko-KR,ko;q=0.9,en;q=0.5"]).page
        #expect(korean.contains(#"<html lang="ko">"#) && korean.contains("로그아웃") && korean.contains("이번 주 3회 중 0회") && korean.contains("습관 추가"), "\(korean.prefix(600))")
        let english = today(client, cookie, headers: ["Accept-Language": "en-US"]).page
        #expect(english.contains(#"<html lang="en">"#) && english.contains("0 of 3 this week") && english.contains("Sign out"))
        let set = client.send("PUT", "/v1/settings", token: ana, body: #"{"language":"ko"}"#)
        #expect(set.status == 200 && set.body.contains(#""language":"ko""#), "\(set.body)")
        #expect(today(client, cookie, headers: ["Accept-Language": "en-US"]).page.contains(#"<html lang="ko">"#))
        let refused = client.send("PUT", "/v1/settings", token: ana, body: #"{"language":"fr"}"#)
        #expect(refused.status == 400 && refused.body.contains("unknown language 'fr'"))
        let page = client.send("GET", "/habits/gym", headers: ["Cookie": cookie]).body
        #expect(page.contains(#"<html lang="ko">"#) && page.contains("현재 연속") && page.contains("범례"), "\(page.prefix(400))")
    }

    @Test("/today.html answers 304 for the ETag it gave until something is written, then the new cards")
    func polling() throws {
        let (client, ana, _, cookie) = try serveWater()
        let first = client.send("GET", "/today.html", headers: ["Cookie": cookie])
        let etag = try #require(first.headers["etag"])
        #expect(first.status == 200 && first.body.contains(#"data-habit="water""#))
        #expect(client.send("GET", "/today.html", headers: ["Cookie": cookie, "If-None-Match": etag]).status == 304)
        #expect(client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":2}"#).status == 201)
        let after = client.send("GET", "/today.html", headers: ["Cookie": cookie, "If-None-Match": etag])
        #expect(after.status == 200 && after.headers["etag"] != etag && after.body.contains(#"<span data-field="total">2/8</span>"#))
        #expect(client.send("GET", "/today.html").status == 303)
    }

    @Test("today's page for 20 habits, with its stylesheet and script, is under 100 KB")
    func weight() throws {
        let (client, ana, _) = try serve()
        for index in 0..<20 {
            let body = #"{"name":"habit \#(index)","goal":\#(index % 3 + 1),"schedule":"\#(index % 2 == 0 ? "daily" : "3 times a week")","start":"2026-01-01"}"#
            #expect(client.send("POST", "/v1/habits", token: ana, body: body).status == 201)
        }
        let cookie = signIn(client, ana)
        let page = client.send("GET", "/", headers: ["Cookie": cookie])
        #expect(page.body.components(separatedBy: "<li class=\"habit\"").count == 21)
        let weight = ["/", "/app.css", "/app.js"].reduce(0) { $0 + (client.send("GET", $1, headers: ["Cookie": cookie]).body.utf8.count) }
        #expect(weight < 100_000, "\(weight) bytes")
    }
}
