import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// Passwords: Argon2id hashes with their own salt and parameters, the rules a new one must meet,
/// the old one asked for to change it, sign-in on the web by name and password, and the names
/// locked after failures.
@Suite("passwords")
struct PasswordTests {
    @Test("an Argon2id hash records its salt and parameters; the same password hashes differently each time; it verifies only itself")
    func hashes() throws {
        let hasher = try Argon2idHasher()
        let first = try hasher.hash("correct horse battery")
        let second = try hasher.hash("correct horse battery")
        #expect(first.hasPrefix("$argon2id$v=19$m=65536,t=2,p=1$") && first != second)
        #expect(hasher.verify("correct horse battery", against: first) && hasher.verify("correct horse battery", against: second))
        #expect(!hasher.verify("correct horse batterY", against: first))
        #expect(!hasher.verify("anything", against: "not a hash"))
        #expect(hasher.decoyHash.hasPrefix("$argon2id$") && !hasher.verify("", against: hasher.decoyHash))
    }

    @Test("a new password is 8 to 1024 characters without control characters; once set, the old one is asked for", arguments: [
        ("short", "at least 8"), (String(repeating: "x", count: 1025), "at most 1024"), ("tab\there ok", "control characters"),
    ])
    func rules(_ password: String, _ message: String) throws {
        let api = InProcessAPI()
        _ = try api.user("ana")
        let users = ManageUsers(context: HabitContext(store: api.store, clock: api.clock, boundary: DayBoundary(timeZone: .gmt)))
        do {
            try users.setPassword(of: "ana", to: password, old: nil, hasher: try Argon2idHasher())
            Issue.record("accepted \(password.prefix(20))")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
        }
        #expect(try users.user(named: "ana").passwordHash == nil)
    }

    @Test("PUT /v1/settings/password sets it; changing it needs the current one (401 otherwise, nothing changed)")
    func api() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let set = api.send("PUT", "/v1/settings/password", token: token, body: #"{"new":"correct horse battery"}"#)
        #expect(set.status == 200 && String(decoding: set.body, as: UTF8.self).contains(#""hasPassword":true"#))
        let users = ManageUsers(context: HabitContext(store: api.store, clock: api.clock, boundary: DayBoundary(timeZone: .gmt)))
        let hash = try #require(try users.user(named: "ana").passwordHash)
        for body in [#"{"new":"another good one"}"#, #"{"old":"wrong password","new":"another good one"}"#] {
            let refused = api.send("PUT", "/v1/settings/password", token: token, body: body)
            #expect(refused.status == 401 && String(decoding: refused.body, as: UTF8.self).contains("current password is wrong"))
        }
        #expect(try users.user(named: "ana").passwordHash == hash)
        let changed = api.send("PUT", "/v1/settings/password", token: token, body: #"{"old":"correct horse battery","new":"another good one"}"#)
        #expect(try changed.status == 200 && users.user(named: "ana").passwordHash != hash)
        #expect(api.send("PUT", "/v1/settings/password", token: token, body: #"{"new":"x"}"#).status == 400)
        #expect(!String(decoding: api.get("/v1/settings", authorization: "Bearer \(token)").body, as: UTF8.self).contains("argon2"))
    }

    func signIn(_ api: InProcessAPI, _ form: String) -> HTTPResponse {
        api.api.handle(HTTPRequest(method: "POST", path: "/session", contentType: "application/x-www-form-urlencoded", body: Array(form.utf8)))
    }

    @Test("the sign-in form takes a name and password (or a token); five failures lock the name for 15 minutes, saying until when")
    func signInAndLock() throws {
        let api = InProcessAPI()
        let token = try api.user("bo")
        #expect(api.send("PUT", "/v1/settings/password", token: token, body: #"{"new":"correct horse battery"}"#).status == 200)
        let page = api.get("/", authorization: nil)
        let html = String(decoding: page.body, as: UTF8.self)
        #expect(html.contains(#"<form method="post" action="/session" data-form="sign-in">"#) && html.contains(#"name="name""#)
                && html.contains(#"name="password" type="password" autocomplete="current-password""#) && html.contains(#"name="token""#))

        let opened = signIn(api, "name=bo&password=correct+horse+battery")
        #expect(opened.status == 303 && opened.setCookie?.hasPrefix("stackday_session=ss_") == true)
        #expect(signIn(api, "token=\(token)").status == 303)
        // An unknown name and a wrong password get the same answer.
        let unknown = signIn(api, "name=nobody&password=correct+horse+battery")
        #expect(unknown.status == 401 && String(decoding: unknown.body, as: UTF8.self).contains("That name and password do not match."))
        for _ in 1...5 { #expect(signIn(api, "name=bo&password=wrong").status == 401) }
        let locked = signIn(api, "name=bo&password=correct+horse+battery")
        #expect(locked.status == 429)
        #expect(locked.headers.contains { $0.0 == "Retry-After" && Int($0.1) == 900 })
        #expect(String(decoding: locked.body, as: UTF8.self).contains("it opens again at 2026-10-13 "), "\(String(decoding: locked.body, as: UTF8.self))")
        // The token still works for the locked account; another name is not locked.
        #expect(signIn(api, "token=\(token)").status == 303)
    }

    @Test("a lock opens 15 minutes after the last failure, from the failing address only; a success clears that address's count")
    func lockTimes() {
        let lock = SignInLock()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for minute in 0..<4 { lock.failed("ana", address: "192.0.2.1", at: start.addingTimeInterval(Double(minute) * 60)) }
        #expect(lock.lockedUntil("ana", address: "192.0.2.1", at: start.addingTimeInterval(240)) == nil)
        lock.failed("ana", address: "192.0.2.1", at: start.addingTimeInterval(240))
        #expect(lock.lockedUntil("ana", address: "192.0.2.1", at: start.addingTimeInterval(300)) == start.addingTimeInterval(240 + 900))
        #expect(lock.lockedUntil("ana", address: "198.51.100.7", at: start.addingTimeInterval(300)) == nil, "another address is not locked")
        #expect(lock.lockedUntil("ana", address: "192.0.2.1", at: start.addingTimeInterval(240 + 900)) == nil)
        // Failures spread wider than 15 minutes apart never add up.
        for index in 0..<10 { lock.failed("bo", address: "192.0.2.1", at: start.addingTimeInterval(Double(index) * 901)) }
        #expect(lock.lockedUntil("bo", address: "192.0.2.1", at: start.addingTimeInterval(9 * 901 + 1)) == nil)
        for _ in 0..<4 { lock.failed("cy", address: "192.0.2.1", at: start) }
        lock.succeeded("cy", address: "192.0.2.1")
        lock.failed("cy", address: "192.0.2.1", at: start)
        #expect(lock.lockedUntil("cy", address: "192.0.2.1", at: start) == nil)
    }

    @Test("failures from many addresses only slow a name, growing and capped, and never a browser that signed in to it before")
    func accountDelays() {
        let lock = SignInLock()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<10 { lock.failed("alice", address: "203.0.113.\(index)", at: start) }
        #expect(lock.lockedUntil("alice", address: "192.0.2.50", at: start) == nil, "ten failures elsewhere do not slow her")
        lock.failed("alice", address: "203.0.113.10", at: start)
        #expect(lock.lockedUntil("alice", address: "192.0.2.50", at: start) == start.addingTimeInterval(2))
        #expect(lock.lockedUntil("alice", address: "192.0.2.50", known: true, at: start) == nil)
        for index in 11..<40 { lock.failed("alice", address: "203.0.113.\(index)", at: start) }
        #expect(lock.lockedUntil("alice", address: "192.0.2.50", at: start) == start.addingTimeInterval(SignInLock.longestDelay))
        #expect(lock.lockedUntil("alice", address: "192.0.2.50", known: true, at: start) == nil)
    }

    @Test("ten failed sign-ins for alice from ten other addresses: she signs in from her browser at once")
    func attackerCannotLockOut() throws {
        let api = InProcessAPI()
        let token = try api.user("alice")
        #expect(api.send("PUT", "/v1/settings/password", token: token, body: #"{"new":"correct horse battery"}"#).status == 200)
        func signIn(_ form: String, from address: String, cookie: String? = nil) -> HTTPResponse {
            var request = HTTPRequest(method: "POST", path: "/session", cookie: cookie, contentType: "application/x-www-form-urlencoded", body: Array(form.utf8))
            request.address = address
            return api.api.handle(request)
        }
        let first = signIn("name=alice&password=correct+horse+battery", from: "192.0.2.50")
        #expect(first.status == 303)
        let known = try #require(first.headers.first { $0.name == "Set-Cookie" && $0.value.hasPrefix("stackday_known=") }?.value.components(separatedBy: ";").first)
        for index in 0..<10 { #expect(signIn("name=alice&password=guess\(index)", from: "203.0.113.\(index)").status == 401) }
        // Past ten, a browser she never used waits, and an address that failed five times is locked.
        for _ in 0..<5 { _ = signIn("name=alice&password=guess", from: "203.0.113.99") }
        let locked = signIn("name=alice&password=correct+horse+battery", from: "203.0.113.99")
        #expect(locked.status == 429 && String(decoding: locked.body, as: UTF8.self).contains("opens again"))
        // Alice's browser, which signed in before, is let in at once.
        #expect(signIn("name=alice&password=correct+horse+battery", from: "192.0.2.50", cookie: known).status == 303)
    }
}
