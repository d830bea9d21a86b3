import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// A user's week start over HTTP: `PUT /v1/settings` and the settings page change it, a habit that
/// counts weeks gets new rules from the next Sunday week, and the pages' calendars start on it.
@Suite("week start on the web and the API")
struct WeekStartPageTests {
    @Test("PUT weekStartsOn sun: the user says so, a weekly quota gets a revision, the month table and the heatmap start on Sunday")
    func api() throws {
        let api = InProcessAPI(policies: TodayCheckInTests.scripts)
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"stretch","schedule":"3 times a week","start":"2026-09-01"}"#).status == 201)
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"read","start":"2026-09-01"}"#).status == 201)
        let refused = api.send("PUT", "/v1/settings", token: token, body: #"{"weekStartsOn":"fri"}"#)
        #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("'fri' (use mon or sun)"))
        let set = api.send("PUT", "/v1/settings", token: token, body: #"{"weekStartsOn":"sun"}"#)
        #expect(set.status == 200 && String(decoding: set.body, as: UTF8.self).contains(#""weekStartsOn":"sun""#))
        let stretch = String(decoding: api.send("GET", "/v1/habits/stretch", token: token).body, as: UTF8.self)
        #expect(stretch.contains(#""revisions":2"#), "\(stretch)")
        // From the next Sunday week (today is Tuesday 2026-10-13).
        let revisions = String(decoding: api.send("GET", "/v1/habits/stretch/revisions", token: token).body, as: UTF8.self)
        #expect(revisions.contains(#""from":"2026-10-18""#) && revisions.contains(#""params":{"times":3,"weekStart":"sun"}"#), "\(revisions)")
        #expect(String(decoding: api.send("GET", "/v1/habits/read", token: token).body, as: UTF8.self).contains(#""revisions":1"#))
        let browser = try TodayCheckInTests.Browser(api, token: token)
        let page = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/stretch", cookie: browser.cookie)).body, as: UTF8.self)
        #expect(page.contains(#"<thead><tr><th scope="col">Sun</th><th scope="col">Mon</th>"#), "the month table starts on Sunday")
        let settings = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/settings", cookie: browser.cookie)).body, as: UTF8.self)
        #expect(settings.contains(#"data-form="week-start""#) && settings.contains(#"<option value="sun" selected>Sunday</option>"#))
        // Back to Monday by the settings form: another revision, and Monday first again.
        #expect(browser.post("/settings", "weekStartsOn=mon&back=/settings") == 303)
        #expect(String(decoding: api.send("GET", "/v1/habits/stretch", token: token).body, as: UTF8.self).contains(#""revisions":3"#))
        let monday = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/stretch", cookie: browser.cookie)).body, as: UTF8.self)
        #expect(monday.contains(#"<thead><tr><th scope="col">Mon</th>"#))
        #expect(browser.post("/settings", "weekStartsOn=fri&back=/settings") == 400)
    }
}
