import Foundation
import StackDay
import StackDayLua
@testable import StackDayServer
import Testing

/// A Korean user's pages say in Korean what the command line says in Korean: a refused change's
/// message, and the built-in policies' descriptions and parameter help.
@Suite("Korean pages")
struct KoreanPageTests {
    func korean() throws -> (InProcessAPI, TodayCheckInTests.Browser, String) {
        let policies: @Sendable () -> any PolicyResolver = {
            if let library = try? PolicyLibrary(searchPath: []) { return library }
            return StandardPolicyResolver()
        }
        let api = InProcessAPI(policies: policies)
        let token = try api.user("ana")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","start":"2026-10-01"}"#).status == 201)
        let browser = try TodayCheckInTests.Browser(api, token: token)
        #expect(browser.post("/settings", "language=ko") == 303)
        return (api, browser, token)
    }

    @Test("a refused check-in's message is Korean where the command line's is; an error with no Korean text stays English")
    func refusals() throws {
        let (api, browser, _) = try korean()
        let future = api.api.handle(HTTPRequest(method: "POST", path: "/habits/water/record", cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                                body: Array("csrf=\(browser.csrf)&amount=1&on=2026-12-01".utf8)))
        let page = String(decoding: future.body, as: UTF8.self)
        #expect(future.status == 400 && page.contains("role=\"alert\">미래의 날짜입니다: 2026-12-01"), "\(page.prefix(200))")
        let missing = api.api.handle(HTTPRequest(method: "POST", path: "/habits/nothing/record", cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                                 body: Array("csrf=\(browser.csrf)&amount=1".utf8)))
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self).contains("없는 습관입니다: &#39;nothing&#39;"))
    }

    @Test("the built-in policies' descriptions and parameter help are Korean on a Korean page, English on an English one")
    func policyWords() throws {
        let (_, browser, _) = try korean()
        let page = browser.today
        #expect(page.contains("놓친 날로 끝나는 <code>per</code>일 동안 놓친 날이 <code>misses</code>번 이하이면 용서합니다."))
        #expect(!page.contains("`"), "a backtick shown as it is")
        #expect(page.contains("기간 안에서 용서하는 놓친 날 수") && !page.contains("Misses forgiven within the window"))
        #expect(browser.post("/settings", "language=en") == 303)
        #expect(browser.today.contains("Misses forgiven within the window"))
    }

    @Test("a Korean page names policies in Korean: the add form's options and legends, a habit's revisions; the ids are only values")
    func policyNames() throws {
        let (api, browser, _) = try korean()
        let page = browser.today
        let options = page.components(separatedBy: "<option ").dropFirst().map { $0.prefix { $0 != "<" } }
        let library = try PolicyLibrary(searchPath: [])
        let ids = Set(library.catalog().map(\.name))
        let shown = options.compactMap { $0.split(separator: ">", maxSplits: 1).last.map(String.init) }
        #expect(shown.contains("일주일에 N회") && shown.contains("매일") && shown.contains("엄격") && shown.contains("목표 달성"), "\(shown)")
        #expect(shown.allSatisfy { !ids.contains($0) }, "an id shown as a name: \(shown.filter { ids.contains($0) })")
        #expect(page.contains("<option value=\"times-per-week\">일주일에 N회</option>"))
        #expect(page.contains("<legend>일주일에 N회: "))
        let habit = String(decoding: api.api.handle(HTTPRequest(method: "GET", path: "/habits/water", cookie: browser.cookie)).body, as: UTF8.self)
        let revisions = try #require(habit.range(of: "id=\"revisions\"").map { String(habit[$0.upperBound...].prefix(400)) })
        #expect(revisions.contains("매일") && revisions.contains("엄격") && !revisions.contains("strict,"), "\(revisions)")
    }

    @Test("an unknown schedule said in words is refused in Korean on a Korean page")
    func scheduleWords() throws {
        let (api, browser, _) = try korean()
        let answer = api.api.handle(HTTPRequest(method: "POST", path: "/habits", cookie: browser.cookie, contentType: "application/x-www-form-urlencoded",
                                                body: Array("csrf=\(browser.csrf)&name=moon&goal=1&scheduleText=every+blue+moon".utf8)))
        let page = String(decoding: answer.body, as: UTF8.self)
        #expect(answer.status == 400 && page.contains("알아들을 수 없는 일정입니다") && !page.contains("docs/policies.md"), "\(answer.status) \(page.prefix(300))")
    }

    @Test("every built-in policy's description and parameter help has its Korean text")
    func complete() throws {
        let library = try PolicyLibrary(searchPath: [])
        let words = PageWords(language: .ko)
        // An empty search path: the built-ins only.
        for listing in library.catalog() {
            #expect(words[listing.description] != listing.description, "\(listing.name)")
            for parameter in listing.schema.parameters where !parameter.description.isEmpty {
                #expect(words[parameter.description] != parameter.description, "\(listing.name).\(parameter.name)")
            }
            #expect(words.policy(listing.name) != listing.name, "\(listing.name) has no Korean title")
        }
    }
}
