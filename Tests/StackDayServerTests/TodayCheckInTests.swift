import Foundation
import StackDay
import StackDayLua
@testable import StackDayServer
import Testing

/// Today's cards check in as people do: a yes/no habit toggles, a counted one lists today's records
/// each with its own remove button, a limit reads as a limit, and a skip can be taken back.
@Suite("today's check-ins")
struct TodayCheckInTests {
    /// Today's page of a signed-in user, and a way to post its forms.
    struct Browser {
        let api: InProcessAPI
        let cookie: String
        let csrf: String

        init(_ api: InProcessAPI, token: String) throws {
            self.api = api
            let opened = api.api.handle(HTTPRequest(method: "POST", path: "/session", contentType: "application/x-www-form-urlencoded",
                                                    body: Array("token=\(token)".utf8)))
            cookie = try #require(opened.setCookie?.components(separatedBy: ";").first)
            let page = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/", cookie: cookie)).body, as: UTF8.self)
            let marker = try #require(page.range(of: #"name="csrf" value=""#))
            csrf = String(page[marker.upperBound...].prefix { $0 != "\"" })
        }

        var today: String { String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/", cookie: cookie)).body, as: UTF8.self) }

        func post(_ path: String, _ form: String) -> Int {
            api.api.handle(HTTPRequest(method: "POST", path: path, cookie: cookie, contentType: "application/x-www-form-urlencoded",
                                       body: Array("csrf=\(csrf)&\(form)".utf8))).status
        }

        /// One habit's card.
        func card(_ name: String) -> String {
            let page = today
            guard let found = page.range(of: "data-habit=\"\(name)\""),
                  let start = page.range(of: "<li", options: .backwards, range: page.startIndex..<found.lowerBound) else { return "" }
            let rest = page[start.lowerBound...]
            return String(rest[..<(rest.range(of: "</li><li class=\"habit")?.lowerBound ?? rest.range(of: "</ul>")?.upperBound ?? rest.endIndex)])
        }
    }

    @Test("a yes/no habit's button toggles today; a skip is taken back from the card")
    func toggle() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"stretch","start":"2026-10-01"}"#).status == 201)
        let browser = try Browser(api, token: token)
        #expect(browser.card("stretch").contains(#"action="/habits/stretch/record" data-action="record""#))
        #expect(browser.post("/habits/stretch/record", "amount=1") == 303)
        let done = browser.card("stretch")
        #expect(done.contains(#"data-action="undo""#) && done.contains(#"aria-pressed="true""#) && !done.contains(#"data-action="record""#))
        #expect(browser.post("/habits/stretch/undo", "") == 303)
        #expect(browser.card("stretch").contains(#"aria-pressed="false""#))
        #expect(browser.post("/habits/stretch/skip", "") == 303)
        #expect(browser.card("stretch").contains(#"data-action="unskip""#))
        #expect(browser.post("/habits/stretch/unskip", "") == 303)
        #expect(browser.card("stretch").contains(#"data-action="skip""#))
    }

    @Test("a counted habit lists today's records; each is removed by its own button, another habit's id is not found")
    func records() throws {
        let api = InProcessAPI()
        let token = try api.user("bo")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","goal":8,"unit":"cups","start":"2026-10-01"}"#).status == 201)
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"tea","goal":3,"start":"2026-10-01"}"#).status == 201)
        for amount in [2, 3] { #expect(api.send("POST", "/v1/habits/water/records", token: token, body: #"{"amount":\#(amount),"note":"<b>"}"#).status == 201) }
        let browser = try Browser(api, token: token)
        let card = browser.card("water")
        let ids = card.components(separatedBy: "data-record=\"").dropFirst().map { String($0.prefix(36)) }
        #expect(ids.count == 2 && card.contains("2 cups · ") && card.contains("&lt;b&gt;") && !card.contains("<b>"))
        #expect(browser.post("/habits/tea/remove", "id=\(ids[0])") == 404, "another habit's record")
        #expect(browser.post("/habits/water/remove", "id=\(ids[0])") == 303)
        let after = browser.card("water")
        #expect(!after.contains(ids[0]) && after.contains(ids[1]) && after.contains("3/8"))
    }

    @Sendable static func scripts() -> any PolicyResolver {
        if let library = try? PolicyLibrary(searchPath: []) { return library }
        return StandardPolicyResolver()
    }

    @Test("an at-most habit reads as a limit, warns when over, and its button is not a goal's")
    func limit() throws {
        // The built-ins as scripts: at-most is one.
        let api = InProcessAPI(policies: Self.scripts)
        let token = try api.user("cy")
        let body = #"{"name":"coffee","unit":"cups","progress":"at-most","progressParams":{"limit":2},"start":"2026-10-01"}"#
        #expect(api.send("POST", "/v1/habits", token: token, body: body).status == 201)
        #expect(api.send("POST", "/v1/habits/coffee/records", token: token, body: #"{"amount":1}"#).status == 201)
        let browser = try Browser(api, token: token)
        let within = browser.card("coffee")
        #expect(within.contains(#"data-limit="within""#) && within.contains("1 of at most 2 cups") && !within.contains("class=\"primary\""))
        #expect(api.send("POST", "/v1/habits/coffee/records", token: token, body: #"{"amount":2}"#).status == 201)
        let over = browser.card("coffee")
        #expect(over.contains(#"class="habit over" data-limit="over""#) && over.contains("3 of at most 2 cups") && over.contains("over the limit"))
    }
}

@Suite("archived habits on the web")
struct ArchivedListTests {
    @Test("today lists the archived habits with an unarchive button; pressing it brings the habit back to today")
    func unarchive() throws {
        let api = InProcessAPI()
        let token = try api.user("di")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"<old>","start":"2026-09-01"}"#).status == 201)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        #expect(!browser.today.contains(#"id="archived""#))
        #expect(api.send("POST", "/v1/habits/%3Cold%3E/archive", token: token, body: #"{"on":"2026-10-01"}"#).status == 200)
        let page = browser.today
        #expect(page.contains(#"<details id="archived"><summary>Archived (1)</summary>"#) && page.contains(#"data-archived="&lt;old&gt;""#))
        #expect(page.contains(#"action="/habits/%3Cold%3E/unarchive" data-action="unarchive""#) && !page.contains(#"data-habit="&lt;old&gt;""#))
        #expect(browser.post("/habits/%3Cold%3E/unarchive", "back=/") == 303)
        #expect(browser.today.contains(#"data-habit="&lt;old&gt;""#) && !browser.today.contains(#"id="archived""#))
    }
}
