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

}
