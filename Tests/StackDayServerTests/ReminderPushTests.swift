import Foundation
import StackDay
import StackDaySQLite
@testable import StackDayServer
import StackDayTestSupport
import Testing

/// Reminders as a person meets them: a browser subscribes, and at a habit's reminder time the
/// sender (pass by pass, on a manual clock) pushes one message per habit still open, encrypted
/// and signed; none for a habit done, skipped or not due; a subscription its service says is
/// gone is removed; "Later" rings an hour on; ntfy and Gotify webhooks get the same reminder as
/// their apps take it. (The messages' decryption and signatures are checked by an independent
/// push service in Tests/Push.)
@Suite("reminders on a phone")
struct ReminderPushTests {
    typealias World = WebhookTests.World

    /// A browser's subscription keys: a P-256 key pair's public point and a 16-byte secret.
    static func browserKeys() throws -> (p256dh: String, auth: String) {
        (Base64URL.encode(try PushServerKey.generate().publicKey), Base64URL.encode(try PushCrypto.random(16)))
    }

    /// Subscribes `endpoint`; the subscription's id.
    static func subscribe(_ world: World, _ endpoint: String, name: String = "phone") throws -> String {
        let keys = try browserKeys()
        let made = world.send("POST", "/v1/push/subscriptions", #"{"endpoint":"\#(endpoint)","keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"},"name":"\#(name)"}"#)
        #expect(made.status == 201, "\(String(describing: made.json))")
        return try #require(made.json?.objectValue?["id"]?.stringValue)
    }

    /// The world's clock is 2026-10-13 23:00 in Seoul: habits reminding at 22:58 ring in the
    /// sender's first look (which reaches 5 minutes back).
    static func habits(_ world: World) {
        for body in [#"{"name":"water","remind":["22:58"]}"#, #"{"name":"read","remind":["22:58"]}"#, #"{"name":"stretch","remind":["22:58"]}"#,
                     #"{"name":"late","remind":["23:30"]}"#] {
            let made = world.send("POST", "/v1/habits", body)
            #expect(made.status == 201, "\(body): \(String(describing: made.json))")
        }
        #expect(world.send("POST", "/v1/habits/read/records", "{}").status == 201)
        #expect(world.send("POST", "/v1/habits/stretch/skips", "{}").status == 201)
    }

    @Test("at the reminder time one push for the open habit, none for one done, skipped or not yet at its time; again, nothing")
    func onlyOpenHabits() throws {
        let world = try World()
        Self.habits(world)
        let service = try WebhookReceiver(statuses: [201])
        defer { service.stop() }
        let key = try #require(world.send("GET", "/v1/push/key").json?.objectValue?["publicKey"]?.stringValue)
        #expect(Base64URL.decode(key)?.count == 65)
        _ = try Self.subscribe(world, service.url("/push/one"))
        #expect(world.sender.pass() == 1)
        #expect(service.received.count == 1)
        let push = try #require(service.received.first)
        #expect(push.headers["content-encoding"] == "aes128gcm" && push.headers["urgency"] == "normal", "\(push.headers)")
        #expect(push.headers["authorization"]?.hasPrefix("vapid t=") == true && push.headers["authorization"]?.hasSuffix("k=\(key)") == true)
        #expect(Int(push.headers["ttl"] ?? "") ?? 0 > 0 && Int(push.headers["ttl"] ?? "") ?? 0 <= 3600)
        #expect(push.body.count > 86 + 16 && !String(decoding: push.body, as: UTF8.self).contains("water"), "the body is ciphertext")
        #expect(world.sender.pass() == 0)
        world.clock.advance(by: 61)
        #expect(world.sender.pass() == 0, "a reminder rings once")
        // The later habit rings at its own time.
        world.clock.advance(by: 30 * 60)
        #expect(world.sender.pass() == 1)
        #expect(service.waitForRequests(2, within: 5))
    }

    @Test("a habit done after its reminder was queued is not pushed; the log says why")
    func doneBeforeSending() throws {
        let world = try World()
        #expect(world.send("POST", "/v1/habits", #"{"name":"water","remind":["22:58"]}"#).status == 201)
        let service = try WebhookReceiver(statuses: [201])
        defer { service.stop() }
        _ = try Self.subscribe(world, service.url("/push/one"))
        try world.sender.findReminders()
        #expect(world.send("POST", "/v1/habits/water/records", "{}").status == 201)
        #expect(world.sender.pass() == 0)
        #expect(service.received.isEmpty)
    }

    @Test("410 removes the subscription; 503 is tried again with backoff and given up after the reminder's hour")
    func goneAndRetried() throws {
        let world = try World()
        #expect(world.send("POST", "/v1/habits", #"{"name":"water","remind":["22:58"]}"#).status == 201)
        let gone = try WebhookReceiver(statuses: [410]), busy = try WebhookReceiver(statuses: [503])
        defer { gone.stop(); busy.stop() }
        let goneID = try Self.subscribe(world, gone.url("/push/gone"), name: "old phone")
        _ = try Self.subscribe(world, busy.url("/push/busy"), name: "tablet")
        // The reminders queued, then the list read (and kept by the answer cache): the sender's
        // removal must move the user's change count, or the kept list would be served stale.
        try world.sender.findReminders()
        #expect(world.send("GET", "/v1/push/subscriptions").json?.objectValue?["subscriptions"]?.arrayValue?.count == 2)
        #expect(world.sender.pass() == 2)
        let listed = try #require(world.send("GET", "/v1/push/subscriptions").json?.objectValue?["subscriptions"]?.arrayValue)
        #expect(listed.compactMap { $0.objectValue?["name"]?.stringValue } == ["tablet"])
        #expect(world.send("DELETE", "/v1/push/subscriptions/\(goneID)").status == 404)
        var tries = 1
        for _ in 0..<40 {
            world.clock.advance(by: 120)
            tries += world.sender.pass()
        }
        #expect(tries >= 4 && tries <= 10, "\(tries) attempts within the hour")
        #expect(busy.received.count == tries)
        world.clock.advance(by: 3600)
        #expect(world.sender.pass() == 0, "given up after the hour")
    }

    @Test("Later rings again an hour on, if the habit is still open then; a test push goes now to each subscription")
    func laterAndTest() throws {
        let world = try World()
        world.clock.advance(by: -12 * 3600) // 11:00, so that an hour on is still today
        #expect(world.send("POST", "/v1/habits", #"{"name":"water"}"#).status == 201)
        let service = try WebhookReceiver(statuses: [201])
        defer { service.stop() }
        _ = try Self.subscribe(world, service.url("/push/one"))
        #expect(world.send("POST", "/v1/push/test").json?.objectValue?["queued"]?.numberValue == 1)
        #expect(world.sender.pass() == 1)
        #expect(world.send("POST", "/v1/push/later", #"{"habit":"water"}"#).json?.objectValue?["queued"]?.numberValue == 1)
        #expect(world.sender.pass() == 0)
        world.clock.advance(by: 3601)
        #expect(world.sender.pass() == 1)
        #expect(service.received.count == 2)
        #expect(world.send("POST", "/v1/push/later", #"{"habit":"nope"}"#).status == 404)
    }

    @Test("ntfy and Gotify webhooks get the reminder as their apps take it: a titled text, a titled JSON message")
    func ntfyAndGotify() throws {
        let world = try World()
        #expect(world.send("POST", "/v1/habits", #"{"name":"water","goal":8,"unit":"glasses","remind":["22:58"]}"#).status == 201)
        #expect(world.send("POST", "/v1/habits/water/records", #"{"amount":3}"#).status == 201)
        let ntfy = try WebhookReceiver(statuses: [200]), gotify = try WebhookReceiver(statuses: [200])
        defer { ntfy.stop(); gotify.stop() }
        for (url, format) in [(ntfy.url("/stackday-topic"), "ntfy"), (gotify.url("/message?token=abc"), "gotify")] {
            let made = world.send("POST", "/v1/webhooks", #"{"url":"\#(url)","events":["reminder"],"format":"\#(format)"}"#)
            #expect(made.status == 201 && made.json?.objectValue?["format"]?.stringValue == format, "\(String(describing: made.json))")
        }
        #expect(world.send("POST", "/v1/webhooks", #"{"url":"\#(ntfy.url())","events":["reminder"],"format":"webpush"}"#).status == 400)
        #expect(world.sender.pass() == 2)
        let text = try #require(ntfy.received.first)
        #expect(text.headers["title"] == "water" && String(decoding: text.body, as: UTF8.self) == "3 of 8 glasses so far today", "\(text.headers)")
        let posted = try #require(gotify.received.first)
        let message = try #require(try JSONValue(parsing: String(decoding: posted.body, as: UTF8.self)).objectValue)
        #expect(message["title"]?.stringValue == "water" && message["message"]?.stringValue == "3 of 8 glasses so far today" && message["priority"]?.numberValue == 5)
    }

    @Test("a paired device sees and removes only the subscriptions it made; the account's token sees them all")
    func holders() throws {
        let world = try World()
        let store = try SQLiteHabitStore(path: world.path)
        let context = HabitContext(store: store, clock: world.clock, boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!))
        let devices = ManageDevices(context: context)
        let phone = try devices.pair(code: try devices.startPairing(user: "ana").code, name: "phone").token.text
        let tablet = try devices.pair(code: try devices.startPairing(user: "ana").code, name: "tablet").token.text
        func subscribe(_ token: String, _ path: String) throws -> String {
            let keys = try Self.browserKeys()
            let made = world.send("POST", "/v1/push/subscriptions",
                                  #"{"endpoint":"http://127.0.0.1:9\#(path)","keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"},"name":"\#(path)"}"#, token: token)
            #expect(made.status == 201)
            return try #require(made.json?.objectValue?["id"]?.stringValue)
        }
        func names(_ token: String) -> [String] {
            world.send("GET", "/v1/push/subscriptions", token: token).json?.objectValue?["subscriptions"]?.arrayValue?
                .compactMap { $0.objectValue?["name"]?.stringValue } ?? []
        }
        _ = try subscribe(phone, "/phone")
        let tablets = try subscribe(tablet, "/tablet")
        #expect(names(phone) == ["/phone"], "\(names(phone))")
        #expect(names(tablet) == ["/tablet"], "\(names(tablet))")
        #expect(names(world.token) == ["/phone", "/tablet"], "\(names(world.token))")
        #expect(world.send("DELETE", "/v1/push/subscriptions/\(tablets)", token: phone).status == 404)
        #expect(world.send("DELETE", "/v1/push/subscriptions/\(tablets)", token: tablet).status == 204)
        #expect(names(world.token) == ["/phone"])
    }

    @Test("a reminder is written in the user's language: Korean words on ntfy for a user who chose ko")
    func inTheUsersLanguage() throws {
        let world = try World()
        #expect(world.send("PUT", "/v1/settings", #"{"language":"ko"}"#).status == 200)
        #expect(world.send("POST", "/v1/habits", #"{"name":"물 마시기","remind":["22:58"]}"#).status == 201)
        let ntfy = try WebhookReceiver(statuses: [200])
        defer { ntfy.stop() }
        #expect(world.send("POST", "/v1/webhooks", #"{"url":"\#(ntfy.url("/topic"))","events":["reminder"],"format":"ntfy"}"#).status == 201)
        #expect(world.sender.pass() == 1)
        let message = try #require(ntfy.received.first)
        // A title outside ASCII travels as an RFC 2047 encoded-word, which ntfy decodes.
        let title = try #require(message.headers["title"])
        let encoded = try #require(title.hasPrefix("=?UTF-8?B?") && title.hasSuffix("?=") ? String(title.dropFirst(10).dropLast(2)) : nil, "\(title)")
        #expect(String(decoding: message.body, as: UTF8.self) == "오늘 아직 하지 않았어요")
        #expect(Data(base64Encoded: encoded).map { String(decoding: $0, as: UTF8.self) } == "물 마시기")
    }

    @Test("twenty push services of one user that trickle a byte at a time hold no one else: another user's reminder arrives within 5 s")
    func slowPushHoldsNoOne() throws {
        let world = try World()
        let store = try SQLiteHabitStore(path: world.path)
        let context = HabitContext(store: store, clock: world.clock, boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!))
        let mallory = try ManageUsers(context: context).add("mallory", timeZone: "Asia/Seoul").token.text
        let trickle = try WebhookReceiver(trickling: true), fair = try WebhookReceiver(statuses: [201])
        defer { trickle.stop(); fair.stop() }
        for index in 0..<20 {
            let keys = try Self.browserKeys()
            let body = #"{"endpoint":"\#(trickle.url("/push/\(index)"))","keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"}}"#
            #expect(world.send("POST", "/v1/push/subscriptions", body, token: mallory).status == 201)
        }
        #expect(world.send("POST", "/v1/habits", #"{"name":"water","remind":["22:58"]}"#, token: mallory).status == 201)
        #expect(world.send("POST", "/v1/habits", #"{"name":"read","remind":["22:58"]}"#).status == 201)
        _ = try Self.subscribe(world, fair.url("/push/ana"))
        world.sender.start(interval: 0.05)
        defer { world.sender.stop(grace: 1) }
        #expect(fair.waitForRequests(1, within: 5), "ana's reminder did not arrive within 5 s beside mallory's trickling push services")
    }

    @Test("a subscription is refused with a clear error for a bad endpoint, keys or name, and for a loopback service without --allow-local-push",
          arguments: [
              (#"{"endpoint":"ftp://x/y","keys":{"p256dh":"KEY","auth":"AUTH"}}"#, "endpoint"),
              (#"{"endpoint":"https://push.example/a","keys":{"p256dh":"AAAA","auth":"AUTH"}}"#, "p256dh"),
              (#"{"endpoint":"https://push.example/a","keys":{"p256dh":"KEY","auth":"AAAA"}}"#, "auth"),
              (#"{"endpoint":"https://push.example/a","keys":{"p256dh":"KEY"}}"#, "keys"),
              (#"{"endpoint":"https://push.example/a","keys":{"p256dh":"KEY","auth":"AUTH","x":"1"}}"#, "x"),
          ])
    func refused(body: String, names: String) throws {
        let world = try World()
        let keys = try Self.browserKeys()
        let answer = world.send("POST", "/v1/push/subscriptions", body.replacingOccurrences(of: "KEY", with: keys.p256dh).replacingOccurrences(of: "AUTH", with: keys.auth))
        let message = answer.json?.objectValue?["error"]?.objectValue?["message"]?.stringValue ?? ""
        #expect(answer.status == 400 && message.contains(names) && !message.contains("\n"), "\(answer.status) \(message)")
        #expect(world.send("GET", "/v1/push/subscriptions").json?.objectValue?["subscriptions"]?.arrayValue?.isEmpty == true)
        let strict = try World(allowsLocal: false)
        let local = strict.send("POST", "/v1/push/subscriptions", #"{"endpoint":"http://127.0.0.1:9/push","keys":{"p256dh":"\#(keys.p256dh)","auth":"\#(keys.auth)"}}"#)
        #expect(local.status == 400 && local.json?.objectValue?["error"]?.objectValue?["message"]?.stringValue?.contains("--allow-local-push") == true)
    }
}
