import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// Reminder times through the API, the web forms and the calendar feed's alarms.
@Suite("reminders")
struct ReminderTests {
    static func json(_ response: HTTPResponse) throws -> [String: JSONValue] {
        try #require(try JSONValue(parsing: String(decoding: response.body, as: UTF8.self)).objectValue)
    }

    @Test("the API takes remind as a list or a text, answers it with the rules, and refuses a time that is not one")
    func api() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let made = try Self.json(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","goal":8,"unit":"cups","remind":["21:00","08:00"]}"#))
        #expect(made["rules"]?.objectValue?["remind"] == .array([.string("08:00"), .string("21:00")]))
        let edited = api.send("PATCH", "/v1/habits/water", token: token, body: #"{"remind":"none","from":"2026-10-20"}"#)
        #expect(edited.status == 200)
        let revisions = String(decoding: api.get("/v1/habits/water/revisions", authorization: "Bearer \(token)").body, as: UTF8.self)
        #expect(revisions.contains(#""remind":["08:00","21:00"]"#))
        let refused = api.send("POST", "/v1/habits", token: token, body: #"{"name":"tea","remind":["25:00"]}"#)
        #expect(refused.status == 400 && String(decoding: refused.body, as: UTF8.self).contains("'25:00' is not a time of day"))
        #expect(api.get("/v1/habits/tea", authorization: "Bearer \(token)").status == 404, "nothing written")
        let tooMany = api.send("PATCH", "/v1/habits/water", token: token, body: #"{"remind":["1","2"]}"#)
        #expect(tooMany.status == 400)
    }

    @Test("the feed rings at each reminder time on due days, with an alarm per time")
    func alarms() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"walk","remind":"07:30, 21:00"}"#).status == 201)
        let context = HabitContext(store: api.store, clock: api.clock, boundary: DayBoundary(timeZone: .gmt))
        let feed = try ManageUsers(context: context).feedToken(of: "ana")
        let text = String(decoding: api.get("/v1/feeds/\(feed).ics", authorization: nil).body, as: UTF8.self)
        #expect(text.components(separatedBy: "BEGIN:VALARM\r\nACTION:DISPLAY\r\nDESCRIPTION:walk\r\n").count == 3)
        #expect(text.contains("TRIGGER;RELATED=START:PT7H30M\r\n") && text.contains("TRIGGER;RELATED=START:PT21H\r\n"))
    }

    @Test("the edit form shows the reminders; the same times written another way write no revision, a change writes one")
    func webForm() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"walk","remind":["21:00","08:00"]}"#).status == 201)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        let page = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/walk", cookie: browser.cookie)).body, as: UTF8.self)
        #expect(page.contains(#"name="remind" value="08:00, 21:00""#))
        // The same times, written another way: nothing to change (the page says so), no revision.
        #expect(browser.post("/habits/walk/edit", "name=walk&goal=1&remind=21%3A00+08%3A00") == 400)
        func revisions() throws -> Int {
            try Self.json(api.get("/v1/habits/walk/revisions", authorization: "Bearer \(token)"))["revisions"]?.arrayValue?.count ?? 0
        }
        #expect(try revisions() == 1)
        #expect(browser.post("/habits/walk/edit", "name=walk&goal=1&remind=06%3A45") == 303)
        let latest = try Self.json(api.get("/v1/habits/walk", authorization: "Bearer \(token)"))
        #expect(latest["rules"]?.objectValue?["remind"] == .array([.string("06:45")]))
    }
}
