import Foundation
import StackDay
import StackDayHTTPClient
import StackDaySQLite
@testable import StackDayServer
import StackDayTestSupport
import Testing

/// Webhooks: created and listed per user, each event queued in the store by the write that made
/// it, sent signed by the sender (called here pass by pass, on a manual clock), retried with
/// backoff, and found after a user's day ends.
@Suite("webhooks")
struct WebhookTests {
    /// A server over a SQLite file (a "restart" is a new API and sender over the same file), on a
    /// manual clock at 2026-10-13 23:00 in Seoul.
    final class World {
        let folder: TemporaryFolder
        let path: String
        let clock = ManualClock(Date(timeIntervalSince1970: 1_791_900_000))
        private(set) var api: StackDayAPI
        private(set) var sender: WebhookSender
        let token: String

        init(allowsLocal: Bool = true) throws {
            folder = try TemporaryFolder()
            path = folder.path("store.sqlite")
            let store = try SQLiteHabitStore(path: path)
            let context = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!, dayStart: .midnight))
            token = try ManageUsers(context: context).add("ana", timeZone: "Asia/Seoul").token.text
            (api, sender) = Self.server(path: path, clock: clock, allowsLocal: allowsLocal)
        }

        static func server(path: String, clock: ManualClock, allowsLocal: Bool) -> (StackDayAPI, WebhookSender) {
            var options = APIOptions()
            options.allowsLocalWebhooks = allowsLocal
            options.allowsLocalPush = allowsLocal
            let api = StackDayAPI(clock: clock, makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { StandardPolicyResolver() },
                                  options: options, log: { _ in })
            let sender = WebhookSender(clock: clock, makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { StandardPolicyResolver() },
                                       allowsLocal: allowsLocal, push: WebhookSender.PushSettings(allowsLocal: allowsLocal, contact: "mailto:ops@example.org"))
            return (api, sender)
        }

        /// A new API and sender over the same file: what a restarted server has.
        func restart(allowsLocal: Bool = true) {
            (api, sender) = Self.server(path: path, clock: clock, allowsLocal: allowsLocal)
        }

        func send(_ method: String, _ path: String, _ body: String = "", token: String? = nil) -> (status: Int, json: JSONValue?) {
            let request = HTTPRequest(method: method, path: path, authorization: "Bearer \(token ?? self.token)", contentType: "application/json", body: Array(body.utf8))
            let answer = api.handle(request)
            return (answer.status, try? JSONValue(parsing: String(decoding: answer.body, as: UTF8.self)))
        }

        /// Creates a webhook; its id and secret.
        func webhook(_ url: String, events: [String]) throws -> (id: String, secret: String) {
            let events = events.map { "\"\($0)\"" }.joined(separator: ",")
            let created = send("POST", "/v1/webhooks", #"{"url":"\#(url)","events":[\#(events)]}"#)
            #expect(created.status == 201, "\(String(describing: created.json))")
            let object = try #require(created.json?.objectValue)
            return (try #require(object["id"]?.stringValue), try #require(object["secret"]?.stringValue))
        }

        func deliveries(_ id: String) throws -> [[String: JSONValue]] {
            let answer = api.handle(HTTPRequest(method: "GET", path: "/v1/webhooks/\(id)/deliveries", authorization: "Bearer \(token)"))
            let text = String(decoding: answer.body, as: UTF8.self)
            #expect(answer.status == 200, "\(text)")
            return try #require((try? JSONValue(parsing: text))?.objectValue?["deliveries"]?.arrayValue, "\(text)").compactMap(\.objectValue)
        }
    }

    @Test("HMAC-SHA256 matches RFC 4231's test case 2")
    func hmacVector() {
        let mac = WebhookSignature.hmacSHA256(Array("what do ya want for nothing?".utf8), key: Array("Jefe".utf8))
        #expect(HexText.lowercase(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test("a record reaches the receiver signed with the webhook's secret; the log says delivered; an event not asked for is not sent")
    func deliveredSigned() throws {
        let world = try World()
        let receiver = try WebhookReceiver()
        #expect(world.send("POST", "/v1/habits", #"{"name":"water","start":"2026-10-01","goal":2,"unit":"cups"}"#).status == 201)
        let (id, secret) = try world.webhook(receiver.url(), events: ["record", "undo"])
        #expect(secret.hasPrefix("whsec_"))
        let listed = world.send("GET", "/v1/webhooks")
        #expect(listed.json?.objectValue?["webhooks"]?.arrayValue?.first?.objectValue?["secret"] == nil, "the secret is shown once")
        #expect(world.send("POST", "/v1/habits/water/records", #"{"amount":1,"note":"morning"}"#).status == 201)
        #expect(world.send("POST", "/v1/habits/water/skips", #"{"from":"2026-10-12","to":"2026-10-12"}"#).status == 201)
        #expect(world.sender.pass() == 1)
        let got = try #require(receiver.received.first)
        #expect(receiver.received.count == 1)
        #expect(got.headers["x-stackday-event"] == "record")
        #expect(got.headers["x-stackday-signature"] == "sha256=" + HexText.lowercase(WebhookSignature.hmacSHA256(got.body, key: Array(secret.utf8))))
        let body = try #require(try JSONValue(parsing: String(decoding: got.body, as: UTF8.self)).objectValue)
        #expect(body["event"]?.stringValue == "record" && body["user"]?.stringValue == "ana")
        #expect(got.headers["x-stackday-delivery"] == body["id"]?.stringValue)
        let data = try #require(body["data"]?.objectValue)
        #expect(data["habit"]?.stringValue == "water" && data["day"]?.stringValue == "2026-10-13" && data["amount"] == .number(1)
                && data["unit"]?.stringValue == "cups" && data["note"]?.stringValue == "morning")
        let log = try world.deliveries(id)
        #expect(log.count == 1 && log[0]["state"]?.stringValue == "delivered" && log[0]["attempts"] == .number(1) && log[0]["lastStatus"] == .number(200))
        // An undo is its own event; a second pass sends nothing again.
        #expect(world.send("DELETE", "/v1/habits/water/records/latest").status == 200)
        #expect(world.sender.pass() == 1 && world.sender.pass() == 0)
        #expect(receiver.received.map { $0.headers["x-stackday-event"] } == ["record", "undo"])
    }

    @Test("a receiver that fails twice gets the third try after the backoff; a restart between tries loses nothing; one delivery id throughout")
    func retriedAcrossRestart() throws {
        let world = try World()
        let receiver = try WebhookReceiver(statuses: [500, 503, 200])
        #expect(world.send("POST", "/v1/habits", #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let (id, _) = try world.webhook(receiver.url("/in?x=1"), events: ["record"])
        #expect(world.send("POST", "/v1/habits/read/records", "{}").status == 201)
        #expect(world.sender.pass() == 1)
        var log = try world.deliveries(id)
        #expect(log[0]["state"]?.stringValue == "pending" && log[0]["attempts"] == .number(1) && log[0]["lastStatus"] == .number(500))
        world.restart()
        world.clock.advance(by: 5)
        #expect(world.sender.pass() == 0, "not due before the first backoff (10 s)")
        world.clock.advance(by: 5)
        #expect(world.sender.pass() == 1)
        world.restart()
        world.clock.advance(by: 19)
        #expect(world.sender.pass() == 0, "the second backoff is 20 s")
        world.clock.advance(by: 1)
        #expect(world.sender.pass() == 1)
        log = try world.deliveries(id)
        #expect(log.count == 1 && log[0]["state"]?.stringValue == "delivered" && log[0]["attempts"] == .number(3) && log[0]["lastStatus"] == .number(200))
        #expect(receiver.received.count == 3)
        #expect(Set(receiver.received.compactMap { $0.headers["x-stackday-delivery"] }).count == 1)
    }

    @Test("a delivery that never succeeds is failed once a day has passed, and not tried again")
    func givesUpAfterADay() throws {
        let world = try World()
        let receiver = try WebhookReceiver(statuses: [500])
        #expect(world.send("POST", "/v1/habits", #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let (id, _) = try world.webhook(receiver.url(), events: ["record"])
        #expect(world.send("POST", "/v1/habits/read/records", "{}").status == 201)
        var attempts = 0
        for _ in 0..<200 {
            attempts += world.sender.pass()
            world.clock.advance(by: 3600)
        }
        let log = try world.deliveries(id)
        #expect(log[0]["state"]?.stringValue == "failed" && log[0]["nextAttemptAt"] == .null)
        #expect(attempts == receiver.received.count && attempts > 5 && attempts < 40, "\(attempts) attempts")
    }

    @Test("day.missed is sent once after the day ends, with streak.broken when it ended a streak; a restart does not send it again")
    func dayEnd() throws {
        let world = try World()
        let receiver = try WebhookReceiver()
        #expect(world.send("POST", "/v1/habits", #"{"name":"walk","start":"2026-10-01"}"#).status == 201)
        for day in ["2026-10-11", "2026-10-12"] {
            #expect(world.send("POST", "/v1/habits/walk/records", #"{"on":"\#(day)"}"#).status == 201)
        }
        _ = try world.webhook(receiver.url(), events: ["day.missed", "streak.broken"])
        // 23:00 on the 13th: the 12th was met; nothing to send.
        #expect(world.sender.pass() == 0)
        // 00:30 on the 14th: the 13th ended unmet, ending a streak of 2.
        world.clock.advance(by: 5400)
        #expect(world.sender.pass() == 2)
        #expect(world.sender.pass() == 0)
        world.restart()
        #expect(world.sender.pass() == 0, "found again after a restart, but queued once")
        // Deliveries due at the same moment go in no promised order.
        let sent = try receiver.received.map { try #require(try JSONValue(parsing: String(decoding: $0.body, as: UTF8.self)).objectValue) }
            .sorted { ($0["event"]?.stringValue ?? "") < ($1["event"]?.stringValue ?? "") }
        #expect(sent.map { $0["event"]?.stringValue } == ["day.missed", "streak.broken"])
        #expect(sent.allSatisfy { $0["data"]?.objectValue?["day"]?.stringValue == "2026-10-13" && $0["data"]?.objectValue?["habit"]?.stringValue == "walk" })
        #expect(sent[1]["data"]?.objectValue?["streak"] == .number(2))
        // The next day is missed too, but no streak is left to break.
        world.clock.advance(by: 86_400)
        #expect(world.sender.pass() == 1)
        #expect(receiver.received.last?.headers["x-stackday-event"] == "day.missed")
    }

    @Test("loopback and private addresses are refused without --allow-local-webhooks, on creation and on delivery; bad input is a 400")
    func refusals() throws {
        let strict = try World(allowsLocal: false)
        let local = strict.send("POST", "/v1/webhooks", #"{"url":"http://127.0.0.1:9/x","events":["record"]}"#)
        #expect(local.status == 400 && local.json?.objectValue?["error"]?.objectValue?["message"]?.stringValue?.contains("loopback or private") == true)
        for (body, message) in [
            (#"{"url":"http://example.com/x","events":["nope"]}"#, "unknown event 'nope'"),
            (#"{"url":"ftp://example.com/x","events":["record"]}"#, "absolute http:// or https://"),
            (#"{"url":"http://u:p@example.com/x","events":["record"]}"#, "user name or password"),
            (#"{"url":"http://example.com/x","events":[]}"#, "at least one event"),
            (#"{"events":["record"]}"#, "url"),
        ] {
            let refused = strict.send("POST", "/v1/webhooks", body)
            let text = refused.json?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? ""
            #expect(refused.status == 400 && text.contains(message), "\(body): \(refused.status) \(text)")
        }
        #expect(strict.send("GET", "/v1/webhooks").json?.objectValue?["webhooks"]?.arrayValue?.isEmpty == true, "nothing written")

        // Made while local addresses were allowed, then sent by a server that does not allow them.
        let world = try World()
        let receiver = try WebhookReceiver()
        #expect(world.send("POST", "/v1/habits", #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let (id, _) = try world.webhook(receiver.url(), events: ["record"])
        world.restart(allowsLocal: false)
        #expect(world.send("POST", "/v1/habits/read/records", "{}").status == 201)
        #expect(world.sender.pass() == 1 && receiver.received.isEmpty)
        let log = try world.deliveries(id)
        #expect(log[0]["state"]?.stringValue == "pending" && log[0]["lastError"]?.stringValue?.contains("not allowed") == true)
    }

    @Test("which addresses are public", arguments: [
        ("127.0.0.1", false), ("10.1.2.3", false), ("172.16.0.1", false), ("172.31.255.255", false), ("172.32.0.1", true),
        ("192.168.1.1", false), ("169.254.169.254", false), ("100.64.0.1", false), ("0.0.0.0", false), ("224.0.0.1", false),
        ("8.8.8.8", true), ("::1", false), ("::", false), ("fd00::1", false), ("fe80::1", false), ("::ffff:127.0.0.1", false),
        ("::ffff:8.8.8.8", true), ("2606:4700::1111", true), ("2001:db8::1", false),
        // IPv6 forms that embed IPv4 are judged by what they embed.
        ("64:ff9b::7f00:1", false), ("64:ff9b::808:808", true), ("64:ff9b:1::a00:1", false), ("2002:7f00:1::", false),
        ("2002:808:808::1", true), ("::127.0.0.1", false), ("2001:0:4136:e378:8000:63bf:80ff:fffe", false),
        ("2001:0:808:808:8000:63bf:f7f7:f7f7", true), ("192.88.99.1", false), ("3fff::1", false), ("fec0::1", false),
        ("100::1", false), ("2001:2::1", false), ("255.255.255.255", false),
    ])
    func publicAddresses(_ literal: String, _ isPublic: Bool) throws {
        let addresses = try NetworkAddress.resolve(literal)
        #expect(addresses.count == 1 && addresses[0].isPublic == isPublic, "\(literal)")
    }

    @Test("twenty receivers of one user that trickle a byte at a time hold neither the sender nor another user: hers arrives within 5 s")
    func trickleHoldsNoOne() throws {
        let world = try World()
        let store = try SQLiteHabitStore(path: world.path)
        let context = HabitContext(store: store, clock: world.clock, boundary: DayBoundary(timeZone: .gmt))
        let mallory = try ManageUsers(context: context).add("mallory", timeZone: "UTC").token.text
        let trickle = try WebhookReceiver(trickling: true)
        defer { trickle.stop() }
        let fair = try WebhookReceiver()
        func hook(_ index: Int) -> String { "{\"url\":\"\(trickle.url("/\(index)"))\",\"events\":[\"record\"]}" }
        for index in 0..<20 { #expect(world.send("POST", "/v1/webhooks", hook(index), token: mallory).status == 201) }
        // A 21st is over the limit of webhooks a user may have.
        let over = world.send("POST", "/v1/webhooks", hook(20), token: mallory)
        #expect(over.status == 429 && over.json?.objectValue?["error"]?.objectValue?["code"]?.stringValue == "quota_exceeded")
        #expect(world.send("POST", "/v1/habits", #"{"name":"water","start":"2026-10-01"}"#, token: mallory).status == 201)
        #expect(world.send("POST", "/v1/habits/water/records", #"{"on":"2026-10-12"}"#, token: mallory).status == 201)
        #expect(world.send("POST", "/v1/habits/water/records", #"{"on":"2026-10-13"}"#, token: mallory).status == 201)
        _ = try world.webhook(fair.url(), events: ["record"])
        #expect(world.send("POST", "/v1/habits", #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        #expect(world.send("POST", "/v1/habits/read/records", #"{"on":"2026-10-13"}"#).status == 201)
        world.sender.start(interval: 0.05)
        defer { world.sender.stop() }
        #expect(fair.waitForRequests(1, within: 5), "ana's delivery did not arrive within 5 s beside mallory's trickling receivers")
        #expect(fair.received.count == 1)
    }

    @Test("a webhook is the user's own: another user's id is not found; a deleted one is gone with its log")
    func ownership() throws {
        let world = try World()
        let (id, _) = try world.webhook("http://127.0.0.1:9/x", events: ["skip"])
        let store = try SQLiteHabitStore(path: world.path)
        let context = HabitContext(store: store, clock: world.clock, boundary: DayBoundary(timeZone: .gmt))
        let bob = try ManageUsers(context: context).add("bob", timeZone: "UTC").token.text
        #expect(world.send("GET", "/v1/webhooks/\(id)/deliveries", token: bob).status == 404)
        #expect(world.send("DELETE", "/v1/webhooks/\(id)", token: bob).status == 404)
        #expect(world.send("DELETE", "/v1/webhooks/\(id)").status == 204)
        let gone = world.send("GET", "/v1/webhooks/\(id)/deliveries")
        #expect(gone.status == 404 && gone.json?.objectValue?["error"]?.objectValue?["code"]?.stringValue == "webhook_not_found")
    }
}

/// Webhooks on the web: the settings page lists them with their latest delivery, adds one (its
/// secret shown once, on the page answering the post) and deletes one.
@Suite("webhooks on the settings page")
struct WebhookPageTests {
    @Test("add a webhook from the settings page, see its secret once and its latest delivery, delete it")
    func settings() throws {
        let world = try WebhookTests.World()
        let receiver = try WebhookReceiver()
        let opened = world.api.handle(HTTPRequest(method: "POST", path: "/session", contentType: "application/x-www-form-urlencoded",
                                                  body: Array("token=\(world.token)".utf8)))
        let cookie = try #require(opened.setCookie?.components(separatedBy: ";").first)
        func page() -> String { String(decoding: world.api.handle(HTTPRequest(method: "GET", path: "/settings", cookie: cookie)).body, as: UTF8.self) }
        let before = page()
        #expect(before.contains(#"data-webhooks="none""#) && before.contains(#"data-form="add-webhook""#))
        let csrf = String(before[try #require(before.range(of: #"name="csrf" value=""#)).upperBound...].prefix { $0 != "\"" })
        func post(_ path: String, _ form: String) -> HTTPResponse {
            world.api.handle(HTTPRequest(method: "POST", path: path, cookie: cookie, contentType: "application/x-www-form-urlencoded",
                                         body: Array("csrf=\(csrf)&\(form)".utf8)))
        }
        let url = receiver.url().addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let created = post("/settings/webhooks", "url=\(url)&events=record&events=streak.milestone")
        let shown = String(decoding: created.body, as: UTF8.self)
        #expect(created.status == 201 && created.headers.contains { $0.0 == "Cache-Control" && $0.1 == "no-store" })
        let secret = try #require(shown.firstMatch(of: /data-webhook-secret>(whsec_[0-9a-f]{64})</)).1
        #expect(!page().contains(String(secret)), "the secret is shown once")
        let listed = try #require(world.send("GET", "/v1/webhooks").json?.objectValue?["webhooks"]?.arrayValue?.first?.objectValue)
        #expect(listed["events"] == .array([.string("record"), .string("streak.milestone")]))
        let id = try #require(listed["id"]?.stringValue)

        #expect(world.send("POST", "/v1/habits", #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        #expect(world.send("POST", "/v1/habits/read/records", "{}").status == 201)
        #expect(world.sender.pass() == 1)
        #expect(page().contains(#"<span data-webhook-state="delivered">delivered (200)</span>"#))

        let refused = post("/settings/webhooks", "url=ftp%3A%2F%2Fexample.com&events=record")
        #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("absolute http:// or https://"))
        #expect(post("/settings/webhooks/\(id)/delete", "").status == 303)
        #expect(page().contains(#"data-webhooks="none""#))
    }
}
