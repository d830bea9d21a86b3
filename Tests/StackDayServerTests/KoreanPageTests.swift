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
        #expect(page.contains("놓친 날로 끝나는 `per`일 동안 놓친 날이 `misses`번 이하이면 용서합니다."))
        #expect(page.contains("기간 안에서 용서하는 놓친 날 수") && !page.contains("Misses forgiven within the window"))
        #expect(browser.post("/settings", "language=en") == 303)
        #expect(browser.today.contains("Misses forgiven within the window"))
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
        }
    }
}
