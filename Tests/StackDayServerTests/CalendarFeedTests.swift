import Foundation
import StackDay
import StackDayApplication
import StackDayExchange
@testable import StackDayServer
import Testing

/// The calendar feed: iCalendar text as RFC 5545 writes it, served at an address whose token is
/// the only credential, with an ETag; a rotated address stops working. (Its days are checked
/// against recurring-ical-events in `scripts/calendar-test.sh`.)
@Suite("calendar feed")
struct CalendarFeedTests {
    @Test("TEXT is escaped", arguments: [
        ("plain", "plain"), ("a, b; c", #"a\, b\; c"#), (#"back\slash"#, #"back\\slash"#), ("two\nlines", #"two\nlines"#), ("crlf\r\nend", #"crlf\nend"#),
    ])
    func escaping(text: String, escaped: String) {
        #expect(ICalendarText.escaped(text) == escaped)
    }

    @Test("lines are folded at 75 octets without splitting a character, each ended by CRLF")
    func folding() {
        var calendar = ICalendarText()
        calendar.text("SUMMARY", String(repeating: "물", count: 40))
        let lines = calendar.text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count == 2 && calendar.text.hasSuffix("\r\n"))
        #expect(lines.allSatisfy { $0.utf8.count <= 75 })
        #expect(lines.dropFirst().allSatisfy { $0.hasPrefix(" ") })
        #expect(lines.map { $0.hasPrefix(" ") ? String($0.dropFirst()) : $0 }.joined() == "SUMMARY:" + String(repeating: "물", count: 40))
    }

    @Test("the feed's address answers the user's habits with an ETag; unchanged, 304; rotated, the old one is 404")
    func served() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"물 마시기","goal":8,"unit":"cups","start":"2026-10-01"}"#).status == 201)
        let context = HabitContext(store: api.store, clock: api.clock, boundary: DayBoundary(timeZone: .gmt))
        let users = ManageUsers(context: context)
        let feed = try users.feedToken(of: "ana")
        #expect(try users.feedToken(of: "ana") == feed, "asked again, the same address")
        let answer = api.get("/v1/feeds/\(feed).ics", authorization: nil)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 200 && answer.contentType == "text/calendar; charset=utf-8")
        #expect(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\n") && text.hasSuffix("END:VCALENDAR\r\n"))
        #expect(text.contains("SUMMARY:물 마시기 · 8 cups\r\n") && text.contains("RRULE:FREQ=DAILY\r\n") && text.contains("REFRESH-INTERVAL;VALUE=DURATION:PT1H"))
        let etag = try #require(answer.headers.first { $0.name == "ETag" }?.value)
        var again = HTTPRequest(method: "GET", path: "/v1/feeds/\(feed).ics")
        again.ifNoneMatch = etag
        #expect(api.api.handle(again).status == 304)

        let rotated = try users.feedToken(of: "ana", rotate: true)
        #expect(rotated != feed && rotated.hasPrefix("fd_"))
        #expect(api.get("/v1/feeds/\(feed).ics", authorization: nil).status == 404)
        #expect(api.get("/v1/feeds/\(rotated).ics", authorization: nil).status == 200)
        #expect(api.get("/v1/feeds/\(rotated)", authorization: nil).status == 404, "the address ends in .ics")
    }

    @Test("guessed feed addresses count as failed authentications: after ten from an address it waits")
    func guessing() throws {
        let api = InProcessAPI()
        _ = try api.user("ana")
        for index in 0..<10 {
            #expect(api.get("/v1/feeds/fd_\(String(repeating: "0", count: 63))\(index).ics", authorization: nil).status == 404)
        }
        #expect(api.get("/v1/feeds/fd_\(String(repeating: "0", count: 64)).ics", authorization: nil).status == 429)
    }

    @Test("the settings page makes the feed's address, shows it, and gives it a new one")
    func settingsPage() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let browser = try TodayCheckInTests.Browser(api, token: token)
        func settings() -> String {
            var request = HTTPRequest(method: "GET", path: "/settings", cookie: browser.cookie)
            request.host = "habits.example"
            return String(decoding: api.api.handle(request).body, as: UTF8.self)
        }
        #expect(!settings().contains("data-feed-url") && settings().contains("Make a calendar address"))
        #expect(browser.post("/settings/feed", "") == 303)
        let first = try #require(settings().firstMatch(of: /<code data-feed-url>(http:\/\/habits\.example\/v1\/feeds\/fd_[0-9a-f]{64}\.ics)<\/code>/)).1
        #expect(browser.post("/settings/feed", "") == 303)
        let second = try #require(settings().firstMatch(of: /<code data-feed-url>([^<]+)<\/code>/)).1
        #expect(first != second)
    }
}
