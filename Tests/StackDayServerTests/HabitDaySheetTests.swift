import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// A past day, from the habit page's calendar: its records each with a remove button, the day
/// skipped and taken back, every change landing back on the same day.
@Suite("the habit page's day sheet")
struct HabitDaySheetTests {
    @Test("remove one record of several on a past day, skip that day and take the skip back")
    func pastDay() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","start":"2026-10-01","goal":3,"unit":"cups"}"#).status == 201)
        for amount in [1, 2] {
            #expect(api.send("POST", "/v1/habits/water/records", token: token, body: #"{"amount":\#(amount),"on":"2026-10-05"}"#).status == 201)
        }
        let browser = try TodayCheckInTests.Browser(api, token: token)
        func sheet() -> String {
            String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/water", cookie: browser.cookie,
                                                             query: [("month", "2026-10"), ("day", "2026-10-05")])).body, as: UTF8.self)
        }
        let page = sheet()
        let ids = page.components(separatedBy: "<li data-record=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(ids.count == 2 && page.contains(#"data-action="skip" data-day="2026-10-05""#))
        #expect(page.contains(#"value="/habits/water?month=2026-10&amp;day=2026-10-05#records""#), "each form comes back to the day")
        let removed = api.api.handle(HTTPRequest(method: "POST", path: "/habits/water/remove", cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                                 body: Array("csrf=\(browser.csrf)&id=\(ids[0])&back=%2Fhabits%2Fwater%3Fday%3D2026-10-05%23records".utf8)))
        #expect(removed.status == 303 && removed.location == "/habits/water?day=2026-10-05#records")
        let records = try JSONValue(parsing: String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/v1/habits/water/records", authorization: "Bearer \(token)",
                                                                                                       query: [("from", "2026-10-05"), ("to", "2026-10-05")])).body, as: UTF8.self))
        #expect(records.objectValue?["records"]?.arrayValue?.count == 1)
        #expect(sheet().components(separatedBy: "<li data-record=\"").count == 2, "one record left on the sheet")

        #expect(browser.post("/habits/water/skip", "on=2026-10-05") == 303)
        #expect(sheet().contains(#"data-action="unskip" data-day="2026-10-05""#))
        let calendar = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/v1/calendar/water", authorization: "Bearer \(token)",
                                                                      query: [("from", "2026-10-05"), ("to", "2026-10-05")])).body, as: UTF8.self)
        #expect(calendar.contains(#""state":"skipped""#), "\(calendar)")
        #expect(browser.post("/habits/water/unskip", "on=2026-10-05") == 303)
        #expect(sheet().contains(#"data-action="skip" data-day="2026-10-05""#))
    }
}
