import Foundation
import StackDay
import StackDayLua
@testable import StackDayServer
import Testing

/// A limit's calendar says "within the limit" and "over the limit" where a goal's says met and
/// missed; today's JSON says `limit` and `over`, and the feed names the limit.
@Suite("a limit's calendar")
struct LimitCalendarTests {
    /// The built-in policies, `at-most` among them (the Swift resolver when Lua is missing).
    static let policies: @Sendable () -> any PolicyResolver = {
        if let library = try? PolicyLibrary(searchPath: []) { return library }
        return StandardPolicyResolver()
    }

    @Test("an at-most habit's days are marked within or over its limit, in the cells, their labels and the legend")
    func marks() throws {
        let api = InProcessAPI(policies: Self.policies)
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token,
                         body: #"{"name":"coffee","unit":"cups","progress":"at-most","progressParams":{"limit":2},"start":"2026-10-01"}"#).status == 201)
        for (day, amount) in [("2026-10-05", 1), ("2026-10-06", 3)] {
            #expect(api.send("POST", "/v1/habits/coffee/records", token: token, body: #"{"amount":\#(amount),"on":"\#(day)"}"#).status == 201)
        }
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","goal":2,"start":"2026-10-01"}"#).status == 201)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        func page(_ name: String) -> String {
            String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/\(name)", cookie: browser.cookie, query: [("month", "2026-10")])).body, as: UTF8.self)
        }
        let coffee = page("coffee")
        #expect(coffee.contains(#"data-day="2026-10-05" data-state="met" data-limit="within""#))
        #expect(coffee.contains(#"data-limit="over"><a"#) && coffee.contains("aria-label=\"2026-10-06: over the limit, 3\""))
        #expect(coffee.contains("aria-label=\"2026-10-05: within the limit, 1\""))
        #expect(coffee.contains("</span>within the limit</li>") && coffee.contains("</span>over the limit</li>"))
        let water = page("water")
        #expect(!water.contains("data-limit=") && water.contains("</span>met</li>"), "a goal's calendar keeps met and missed")
    }

    @Test("today's JSON says the limit and over; the feed's summary says at most")
    func todayAndFeed() throws {
        let api = InProcessAPI(policies: Self.policies)
        let ana = try api.user("ana")
        let made = api.send("POST", "/v1/habits", token: ana, body: #"{"name":"coffee","unit":"cups","progress":"at-most","progressParams":{"limit":2},"start":"2026-10-01"}"#)
        #expect(made.status == 201, "\(String(decoding: made.body, as: UTF8.self))")
        #expect(api.send("POST", "/v1/habits/coffee/records", token: ana, body: #"{"amount":2}"#).status == 201)
        func coffee() throws -> [String: JSONValue] {
            let today = try JSONValue(parsing: String(decoding: api.get("/v1/today", authorization: "Bearer \(ana)").body, as: UTF8.self))
            return try #require(today.objectValue?["habits"]?.arrayValue?.first?.objectValue)
        }
        #expect(try coffee()["state"]?.stringValue == "completed")
        #expect(try coffee()["limit"]?.numberValue == 2)
        #expect(api.send("POST", "/v1/habits/coffee/records", token: ana, body: #"{"amount":1}"#).status == 201)
        #expect(try coffee()["state"]?.stringValue == "over")

        let users = ManageUsers(context: HabitContext(store: api.store, clock: api.clock, boundary: DayBoundary(timeZone: .gmt)))
        let feed = api.get("/v1/feeds/\(try users.feedToken(of: "ana")).ics", authorization: nil)
        let text = String(decoding: feed.body, as: UTF8.self)
        #expect(feed.status == 200 && text.contains("SUMMARY:coffee · at most 2 cups"), "\(text.prefix(600))")
    }
}
