import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// A habit's colour, step and place on the web and in the API: the cards show the colour, `+`
/// records the step and `−` takes back the latest record, the habit page moves a habit up or down.
@Suite("habit colours, steps and order on the web and the API")
struct HabitLookPageTests {
    /// A user with habits read, walk and swim, in that order; their token.
    static func threeHabits(_ user: String) throws -> (InProcessAPI, String) {
        let api = InProcessAPI()
        let token = try api.user(user)
        for name in ["read", "walk", "swim"] {
            #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"\#(name)","start":"2026-10-01"}"#).status == 201)
        }
        return (api, token)
    }

    @Test("PATCH takes a colour, a step and a place; POST a colour and a step; a bad one is a 400 that writes nothing")
    func api() throws {
        let (api, token) = try Self.threeHabits("ed")
        let water = api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","unit":"ml","goal":2000,"step":250,"colorTag":"blue"}"#)
        #expect(water.status == 201 && water.text.contains(#""colorTag":"blue""#) && water.text.contains(#""step":250"#) && water.text.contains(#""position":4"#))
        let moved = api.send("PATCH", "/v1/habits/water", token: token, body: #"{"position":1,"colorTag":"none"}"#)
        #expect(moved.status == 200 && moved.text.contains(#""position":1"#) && moved.text.contains(#""colorTag":null"#), "\(moved.text)")
        let list = api.send("GET", "/v1/habits", token: token).text
        let order = ["water", "read", "walk", "swim"].compactMap { list.range(of: "\"name\":\"\($0)\"")?.lowerBound }
        #expect(order.count == 4 && order == order.sorted(), "\(list)")
        for (body, code, names) in [(#"{"colorTag":"magenta"}"#, "bad_request", "field 'colorTag': 'magenta'"), (#"{"position":0}"#, "bad_request", "field 'position'"),
                                    (#"{"step":-1}"#, "invalid_input", "a step must be"), (#"{"position":"first"}"#, "bad_request", "field 'position'")] {
            let refused = api.send("PATCH", "/v1/habits/read", token: token, body: body)
            #expect(refused.status == 400 && refused.text.contains(#""code":"\#(code)""#) && refused.text.contains(names), "\(body): \(refused.text)")
        }
        #expect(api.send("GET", "/v1/habits", token: token).text == list)
    }

    @Test("a card wears its colour; + records the step and − takes back today's latest record")
    func steps() throws {
        let api = InProcessAPI()
        let token = try api.user("fa")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","unit":"ml","goal":2000,"step":250,"colorTag":"teal","start":"2026-10-01"}"#).status == 201)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        let card = browser.card("water")
        #expect(card.contains(#"data-habit="water" data-color="teal""#) && card.contains(#"data-action="step""#) && card.contains(">+250 ml<"))
        #expect(!card.contains(#"data-action="step-back""#), "nothing to take back yet")
        #expect(browser.today.contains("/app.css"))
        #expect(PageAssets.stylesheet.contains("[data-color=teal]{--habit:#00796b}"))
        #expect(browser.post("/habits/water/record", "amount=250") == 303)
        #expect(browser.post("/habits/water/record", "amount=500") == 303)
        let twice = browser.card("water")
        #expect(twice.contains("750/2000") && twice.contains(#"data-action="step-back""#) && twice.contains("Remove 500 ml"), "\(twice)")
        let latest = try #require(twice.components(separatedBy: #"data-action="step-back">"#).last?.components(separatedBy: #"name="id" type="hidden" value=""#).dropFirst().first?.prefix(36))
        #expect(browser.post("/habits/water/remove", "id=\(latest)") == 303)
        #expect(browser.card("water").contains("250/2000"))
    }

    @Test("the habit page moves a habit up and down, and its edit form sets the colour and the step without a new revision")
    func habitPage() throws {
        let (api, token) = try Self.threeHabits("gu")
        let browser = try TodayCheckInTests.Browser(api, token: token)
        func page(_ name: String) -> String {
            String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/\(name)", cookie: browser.cookie)).body, as: UTF8.self)
        }
        let walk = page("walk")
        #expect(walk.contains("Place in the list: 2 / 3") && walk.contains(#"data-action="move-up""#) && walk.contains(#"data-action="move-down""#))
        #expect(!page("read").contains(#"data-action="move-up""#) && !page("swim").contains(#"data-action="move-down""#))
        #expect(browser.post("/habits/walk/move", "position=1") == 303)
        let today = browser.today
        let order = ["walk", "read", "swim"].compactMap { today.range(of: "data-habit=\"\($0)\"")?.lowerBound }
        #expect(order.count == 3 && order == order.sorted())
        #expect(page("walk").contains(#"<option value="none" selected>"#))
        #expect(browser.post("/habits/walk/edit", "name=walk&goal=1&unit=&colorTag=pink&step=2&from=2026-10-11") == 303)
        let edited = page("walk")
        #expect(edited.contains(#"<option value="pink" selected>"#) && edited.contains(#"class="swatch" data-color="pink""#))
        #expect(edited.contains(#"<table class="month" data-color="pink">"#) && edited.contains(#"<li data-revision="1">"#) && !edited.contains(#"data-revision="2""#))
        #expect(browser.post("/habits/walk/move", "position=0") == 400)
    }
}

private extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}
