import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// The web app's pages are routes in a table like the API's: a known path with another method is
/// 405 with `Allow`, an unknown one 404 (or, signed out, the way to sign in).
@Suite("page routes")
struct PageRouterTests {
    @Test("each page and form is a route", arguments: [
        ("GET", ""), ("GET", "today.html"), ("GET", "habits/water"), ("POST", "habits/water/record"), ("POST", "settings/devices/abc/revoke"),
        ("GET", "pair"), ("POST", "pair"), ("POST", "session"), ("GET", "app.css"),
    ])
    func routes(_ method: String, _ path: String) {
        guard case .page(.found) = ServerRoute.match(method, path.isEmpty ? [] : path.split(separator: "/").map(String.init)) else {
            Issue.record("\(method) /\(path) is not a route")
            return
        }
    }

    @Test("another method is 405 with Allow; an unknown page is 404 signed in, a redirect signed out")
    func refusals() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        let browser = try TodayCheckInTests.Browser(api, token: token)
        let put = api.api.handle(HTTPRequest(method: "PUT", path: "/settings", cookie: browser.cookie))
        #expect(put.status == 405 && put.headers.contains { $0.0 == "Allow" && $0.1 == "GET, POST" })
        let delete = api.api.handle(HTTPRequest(method: "DELETE", path: "/", cookie: browser.cookie))
        #expect(delete.status == 405 && delete.headers.contains { $0.0 == "Allow" && $0.1 == "GET" })
        #expect(api.api.handle(HTTPRequest(method: "GET", path: "/nowhere", cookie: browser.cookie)).status == 404)
        #expect(api.api.handle(HTTPRequest(method: "GET", path: "/nowhere")).status == 303)
    }
}
