import Foundation
import StackDay
import StackDayExchange
@testable import StackDayServer
import Testing

/// Devices connected by a one-time code: good once and for ten minutes, exchanged for a token of
/// the device's own that works like the user's until it is revoked, from the API and from the
/// settings page (whose QR code opens `/pair`, which signs a phone's browser in).
@Suite("device pairing")
struct DevicePairingTests {
    static func json(_ response: HTTPResponse) throws -> [String: JSONValue] {
        try #require(try JSONValue(parsing: String(decoding: response.body, as: UTF8.self)).objectValue)
    }

    func pair(_ api: InProcessAPI, _ body: String) -> HTTPResponse {
        api.api.handle(HTTPRequest(method: "POST", path: "/v1/devices/pair", contentType: "application/json", body: Array(body.utf8)))
    }

    @Test("typed codes read as Crockford's base32 reads them", arguments: [
        ("7KQ2-M9XD", "7KQ2M9XD"), ("7kq2 m9xd", "7KQ2M9XD"), ("oil0-abcd", "0110ABCD"), ("7KQ2M9XD", "7KQ2M9XD"),
        ("7KQ2-M9X", nil), ("7KQ2-M9XDE", nil), ("7KQ2-M9XU", nil), ("", nil), ("7KQ2_M9XD", nil),
    ] as [(String, String?)])
    func normalized(typed: String, read: String?) {
        #expect(PairingCode.normalized(typed) == read)
    }

    @Test("a new code is 8 symbols of the alphabet, shown as two groups of four")
    func random() throws {
        let codes = (0..<200).map { _ in PairingCode.random() }
        #expect(codes.allSatisfy { $0.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil })
        #expect(Set(codes).count == codes.count)
    }

    @Test("a code is exchanged once for a device token that works like the user's until revoked")
    func api() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let made = api.send("POST", "/v1/devices/pairing", token: token)
        #expect(made.status == 201)
        let pairing = try Self.json(made)
        let code = try #require(pairing["code"]?.stringValue)
        #expect(pairing["expiresAt"]?.stringValue == InstantText.format(api.clock.now.addingTimeInterval(600)))
        #expect(pairing["command"]?.stringValue?.hasSuffix("--pair \(code)") == true)

        // Typed in lowercase with a space: the same code.
        let paired = pair(api, #"{"code":"\#(code.lowercased().replacingOccurrences(of: "-", with: " "))","name":"laptop"}"#)
        #expect(paired.status == 201)
        let answer = try Self.json(paired)
        let deviceToken = try #require(answer["token"]?.stringValue)
        #expect(deviceToken.hasPrefix("sd_") && deviceToken != token)
        #expect(answer["device"]?.objectValue?["name"]?.stringValue == "laptop")
        #expect(api.get("/v1/habits", authorization: "Bearer \(deviceToken)").status == 200)

        // Used once: the same code again is the answer an unknown one gets.
        let again = pair(api, #"{"code":"\#(code)","name":"phone"}"#)
        #expect(again.status == 401 && String(decoding: again.body, as: UTF8.self).contains("\"pairing_failed\""))

        let listed = try Self.json(api.get("/v1/devices", authorization: "Bearer \(token)"))
        let devices = try #require(listed["devices"]?.arrayValue)
        #expect(devices.count == 1)
        let id = try #require(devices.first?.objectValue?["id"]?.stringValue)
        #expect(devices.first?.objectValue?["lastSeenAt"]?.stringValue != nil)

        #expect(api.send("DELETE", "/v1/devices/\(id)", token: token).status == 204)
        #expect(api.get("/v1/habits", authorization: "Bearer \(deviceToken)").status == 401)
        let gone = api.send("DELETE", "/v1/devices/\(id)", token: token)
        #expect(gone.status == 404 && String(decoding: gone.body, as: UTF8.self).contains("\"device_not_found\""))
        // Another user's device id is not found either.
        let bo = try api.user("bo")
        _ = try Self.json(api.send("POST", "/v1/devices/pairing", token: bo))
        #expect(try Self.json(api.get("/v1/devices", authorization: "Bearer \(bo)"))["devices"]?.arrayValue?.isEmpty == true)
    }

    @Test("a device is a device: it reads and records, and every account action answers 403 forbidden_for_device; it may revoke itself")
    func deviceRights() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        func paired(_ name: String) throws -> (token: String, id: String) {
            let code = try #require(try Self.json(api.send("POST", "/v1/devices/pairing", token: token))["code"]?.stringValue)
            let answer = try Self.json(pair(api, #"{"code":"\#(code)","name":"\#(name)"}"#))
            return (try #require(answer["token"]?.stringValue), try #require(answer["device"]?.objectValue?["id"]?.stringValue))
        }
        let phone = try paired("phone"), laptop = try paired("laptop")
        // What a device does: read and record (its syncs: SyncCommandTests, over a server's file).
        #expect(api.get("/v1/today", authorization: "Bearer \(phone.token)").status == 200)
        #expect(api.send("POST", "/v1/habits/read/records", token: phone.token, body: "{}").status == 201)
        // What it may not: the docs' table, row by row.
        let refused: [(String, String, String)] = [
            ("POST", "/v1/devices/pairing", ""), ("DELETE", "/v1/devices/\(laptop.id)", ""),
            ("PUT", "/v1/settings/password", #"{"new":"correct horse battery"}"#), ("PUT", "/v1/settings", #"{"timeZone":"UTC"}"#),
            ("POST", "/v1/webhooks", #"{"url":"https://example.com/x","events":["record"]}"#), ("GET", "/v1/webhooks", ""),
            ("PUT", "/v1/policies/mine", "function isDue(day, params) return true end"),
        ]
        for (method, path, body) in refused {
            let answer = api.send(method, path, token: phone.token, body: body)
            #expect(answer.status == 403 && String(decoding: answer.body, as: UTF8.self).contains("\"forbidden_for_device\""), "\(method) \(path)")
        }
        #expect(api.get("/v1/settings", authorization: "Bearer \(token)").status == 200)
        #expect(try Self.json(api.get("/v1/devices", authorization: "Bearer \(token)"))["devices"]?.arrayValue?.count == 2)
        // It may leave: its own id, and then its token is gone.
        #expect(api.send("DELETE", "/v1/devices/\(phone.id)", token: phone.token).status == 204)
        let gone = api.get("/v1/today", authorization: "Bearer \(phone.token)")
        // A revoked device is told what happened and what to do, not only that its token is unknown.
        #expect(gone.status == 401 && String(decoding: gone.body, as: UTF8.self).contains("this device ('phone') was disconnected on")
                && String(decoding: gone.body, as: UTF8.self).contains("pair it again"), "\(String(decoding: gone.body, as: UTF8.self))")
        #expect(!String(decoding: api.get("/v1/today", authorization: "Bearer sd_" + String(repeating: "7", count: 64)).body, as: UTF8.self).contains("disconnected"))
        #expect(api.get("/v1/today", authorization: "Bearer \(laptop.token)").status == 200)
    }

    @Test("a browser signed in as a device by /pair may record, and is refused every account form, as the device's token is")
    func deviceBrowser() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"read","start":"2026-10-01"}"#).status == 201)
        let code = try #require(try Self.json(api.send("POST", "/v1/devices/pairing", token: token))["code"]?.stringValue)
        let signedIn = api.api.handle(HTTPRequest(method: "POST", path: "/pair", contentType: "application/x-www-form-urlencoded",
                                                  body: Array("code=\(code)&name=phone".utf8)))
        let cookie = try #require(signedIn.setCookie?.components(separatedBy: ";").first)
        let today = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/", cookie: cookie)).body, as: UTF8.self)
        let csrf = try #require(today.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
        // The account's language is the account's to change: the device's pages offer no form for it.
        #expect(!today.contains("data-action=\"language\"") && today.contains("data-action=\"sign-out\""))
        func post(_ path: String, _ form: String = "") -> HTTPResponse {
            api.api.handle(HTTPRequest(method: "POST", path: path, cookie: cookie, contentType: "application/x-www-form-urlencoded",
                                       body: Array("csrf=\(csrf)&\(form)".utf8)))
        }
        #expect(post("/habits/read/record", "amount=1").status == 303)
        let devices = try #require(try Self.json(api.get("/v1/devices", authorization: "Bearer \(token)"))["devices"]?.arrayValue)
        let phone = try #require(devices.first?.objectValue?["id"]?.stringValue)
        let forms = [("/settings/devices/pair", ""), ("/settings/webhooks", "url=https%3A%2F%2Fexample.com%2Fx&events=record"),
                     ("/settings/feed", ""), ("/settings", "language=ko"), ("/policies", "name=mine&source=x"),
                     ("/settings/devices/\(UUID().uuidString.lowercased())/revoke", "")]
        for (path, form) in forms {
            let answer = post(path, form)
            #expect(answer.status == 403 && String(decoding: answer.body, as: UTF8.self).contains("a paired device may not"), "\(path): \(answer.status)")
        }
        // Nothing was made: no webhook, no second device, no feed.
        #expect(try Self.json(api.get("/v1/webhooks", authorization: "Bearer \(token)"))["webhooks"]?.arrayValue?.isEmpty == true)
        #expect(try Self.json(api.get("/v1/settings", authorization: "Bearer \(token)"))["language"]?.stringValue != "ko")
        // The settings page says why it offers none of them; the device may still sign itself out for good.
        let settings = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/settings", cookie: cookie)).body, as: UTF8.self)
        #expect(settings.contains("data-signed-in-as=\"device\"") && !settings.contains("action=\"/settings/webhooks\"")
                && !settings.contains("data-action=\"language\""))
        #expect(post("/settings/devices/\(phone)/revoke").status == 303)
        #expect(api.get("/v1/devices", authorization: "Bearer \(token)").status == 200)
        #expect(try Self.json(api.get("/v1/devices", authorization: "Bearer \(token)"))["devices"]?.arrayValue?.isEmpty == true)
    }

    @Test("a code stops working after ten minutes; a bad name is refused without using the code")
    func expiry() throws {
        let api = InProcessAPI()
        _ = try api.user("ana")
        let now = api.clock.now
        let made = try ManageDevices(context: HabitContext(store: api.store, clock: FixedClock(now), boundary: DayBoundary(timeZone: .gmt))).startPairing(user: "ana")
        #expect(made.expiresAt == now.addingTimeInterval(PairingCode.lifetime))
        let later = ManageDevices(context: HabitContext(store: api.store, clock: FixedClock(now.addingTimeInterval(601)), boundary: DayBoundary(timeZone: .gmt)))
        let soon = ManageDevices(context: HabitContext(store: api.store, clock: FixedClock(now.addingTimeInterval(599)), boundary: DayBoundary(timeZone: .gmt)))
        #expect(throws: UseCaseError.invalidDeviceName(name: "")) { try soon.pair(code: made.code, name: "  ") }
        #expect(throws: UseCaseError.pairingFailed) { try later.pair(code: made.code, name: "phone") }
        // Expired and so used up: not even a moment that would have been in time takes it now.
        #expect(throws: UseCaseError.pairingFailed) { try soon.pair(code: made.code, name: "phone") }
        let fresh = try soon.startPairing(user: "ana")
        #expect(try soon.pair(code: fresh.code, name: "phone").device.user == "ana")
    }

    @Test("wrong codes count as failed authentications: after ten from an address it waits")
    func guessing() throws {
        let api = InProcessAPI()
        _ = try api.user("ana")
        for index in 0..<10 {
            #expect(pair(api, #"{"code":"0000-000\#(index)"}"#).status == 401)
        }
        let throttled = pair(api, #"{"code":"0000-0000"}"#)
        #expect(throttled.status == 429 && throttled.headers.contains { $0.0 == "Retry-After" })
        #expect(pair(api, #"{"code":"0000-0000","extra":1}"#).status == 429)
    }

    @Test("the settings page shows a code with its QR code (read back by zbar) and link; /pair signs a phone in; Revoke revokes it")
    func settingsPage() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let browser = try TodayCheckInTests.Browser(api, token: token)
        var request = HTTPRequest(method: "POST", path: "/settings/devices/pair", cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                  body: Array("csrf=\(browser.csrf)".utf8))
        request.host = "habits.example:8443"
        let shown = api.api.handle(request)
        #expect(shown.status == 201 && shown.headers.contains { $0 == ("Cache-Control", "no-store") })
        let html = String(decoding: shown.body, as: UTF8.self)
        let code = try #require(html.firstMatch(of: /<output data-pairing-code>([0-9A-Z-]{9})<\/output>/)).1
        let link = "http://habits.example:8443/pair?code=\(code)"
        #expect(html.contains(#"data-pairing-link>\#(link)</a>"#))
        #expect(html.contains("stackday sync --server http://habits.example:8443 --pair \(code)"))
        let svg = try #require(html.firstMatch(of: /<figure data-pairing-qr>(<svg.*?<\/svg>)<\/figure>/)).1
        #expect(try PairingQRPictureTests.decode(String(svg)) == link)

        let page = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/pair", query: [("code", String(code))])).body, as: UTF8.self)
        #expect(page.contains(#"<form method="post" action="/pair" data-form="pair">"#) && page.contains(#"value="\#(code)""#))
        let signedIn = api.api.handle(HTTPRequest(method: "POST", path: "/pair", contentType: "application/x-www-form-urlencoded",
                                                  body: Array("code=\(code)&name=phone".utf8)))
        #expect(signedIn.status == 303 && signedIn.setCookie?.hasPrefix("stackday_session=ss_") == true)
        let refused = api.api.handle(HTTPRequest(method: "POST", path: "/pair", contentType: "application/x-www-form-urlencoded",
                                                 body: Array("code=\(code)&name=phone".utf8)))
        #expect(refused.status == 401 && String(decoding: refused.body, as: UTF8.self).contains("role=\"alert\""))

        let settings = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/settings", cookie: browser.cookie)).body, as: UTF8.self)
        let id = try #require(settings.firstMatch(of: /<li data-device="([0-9a-f-]{36})"><span class="device-name">phone<\/span>/)).1
        let phone = try #require(signedIn.setCookie?.components(separatedBy: ";").first)
        #expect(String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/", cookie: phone)).body, as: UTF8.self).contains("id=\"user\""))
        #expect(browser.post("/settings/devices/\(id)/revoke", "") == 303)
        let after = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/settings", cookie: browser.cookie)).body, as: UTF8.self)
        #expect(after.contains("data-devices=\"none\""))
        // The phone's browser signed in by the code is signed out with its device.
        let revoked = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/", cookie: phone)).body, as: UTF8.self)
        #expect(revoked.contains("data-form=\"sign-in\"") && !revoked.contains("id=\"user\""))
    }
}
