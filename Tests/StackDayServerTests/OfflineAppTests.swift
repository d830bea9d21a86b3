import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// What makes the web app installable and usable offline, from the server's side: the manifest,
/// icon and service worker are served, every page links them, and a form post sent again with
/// the same `Idempotency-Key` (a page's offline queue after a lost answer) writes once.
@Suite("the web app offline")
struct OfflineAppTests {
    @Test("the manifest, the icon and the service worker are served to anyone, each with its type")
    func assets() throws {
        let api = InProcessAPI()
        for (path, type) in [("/manifest.webmanifest", "application/manifest+json"), ("/icon.svg", "image/svg+xml"), ("/sw.js", "text/javascript; charset=utf-8")] {
            let answer = api.api.handle(HTTPRequest(method: "GET", path: path))
            #expect(answer.status == 200 && answer.contentType == type && !answer.body.isEmpty, "\(path)")
        }
        let manifest = try #require(try JSONValue(parsing: String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/manifest.webmanifest")).body, as: UTF8.self)).objectValue)
        #expect(manifest["start_url"]?.stringValue == "/" && manifest["display"]?.stringValue == "standalone")
        #expect(manifest["icons"]?.arrayValue?.isEmpty == false)
        let worker = api.api.handle(HTTPRequest(method: "GET", path: "/sw.js"))
        #expect(worker.headers.contains { $0.0 == "Cache-Control" && $0.1 == "no-cache" })
    }

    @Test("every page links the manifest and icon; the signed-in ones have the offline queue's status line in the page's language")
    func linked() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let browser = try TodayCheckInTests.Browser(api, token: token)
        let signIn = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/")).body, as: UTF8.self)
        #expect(signIn.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#))
        let today = browser.today
        #expect(today.contains(#"<link rel="manifest" href="/manifest.webmanifest">"#) && today.contains(#"rel="icon" href="/icon.svg""#))
        #expect(today.contains(#"id="queue-state""#) && today.contains(#"data-words="offline · {n} waiting""#))
        #expect(browser.post("/settings", "language=ko") == 303)
        #expect(browser.today.contains(#"data-words="오프라인 · {n}개 대기 중""#))
    }

    @Test("a check-in posted twice with one Idempotency-Key is stored once; the second answer is the first's, replayed")
    func postedOnce() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","start":"2026-10-01","goal":8}"#).status == 201)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        func post(key: String?) -> HTTPResponse {
            var request = HTTPRequest(method: "POST", path: "/habits/water/record", cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                      body: Array("csrf=\(browser.csrf)&amount=1".utf8))
            request.idempotencyKey = key
            return api.api.handle(request)
        }
        let first = post(key: "offline-1")
        let again = post(key: "offline-1")
        #expect(first.status == 303 && again.status == 303)
        #expect(again.headers.contains { $0.0 == "Idempotent-Replayed" && $0.1 == "true" })
        #expect(post(key: "offline-2").status == 303)
        let records = api.get("/v1/habits/water/records", authorization: "Bearer \(token)")
        let listed = try #require(try JSONValue(parsing: String(decoding: records.body, as: UTF8.self)).objectValue?["records"]?.arrayValue)
        #expect(listed.count == 2, "two keys, two records")
    }
}
