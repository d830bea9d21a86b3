import Foundation
@testable import StackDayServer
import Testing

/// One route table for the API and the pages: each request is matched once, and goes to the side
/// its path belongs to.
@Suite("one route table")
struct ServerRouteTests {
    @Test("every API pattern starts with v1; no page pattern starts with v1 or a capture, so no path reaches both")
    func sidesDoNotOverlap() {
        let entries = ServerRoute.router.entries
        #expect(entries.count == HabitRoutes.routes.count + PageRoutes.routes.count)
        for (method, pattern, route) in entries {
            let first = pattern.split(separator: "/").first.map(String.init) ?? ""
            switch route {
            case .api: #expect(first == "v1", "\(method) \(pattern)")
            case .page: #expect(first != "v1" && !first.hasPrefix(":"), "\(method) \(pattern)")
            }
        }
    }

    @Test("a request reaches its side: found, another method (with the methods allowed), or nothing", arguments: [
        ("GET", "/v1/habits/water/records", "api found"),
        ("PUT", "/v1/habits/water/records", "api 405 POST, GET"),
        ("GET", "/v1/nowhere", "api 404"),
        ("GET", "/v1/feeds/abc.ics", "api found open"),
        ("POST", "/v1/devices/pair", "api found open"),
        ("GET", "/", "page found"),
        ("GET", "/habits/a%2Fb", "page found"),
        ("DELETE", "/settings", "page 405 GET, POST"),
        ("GET", "/nowhere", "page 404"),
    ])
    func reached(_ method: String, _ path: String, _ expected: String) throws {
        let segments = try #require(Router<ServerRoute>.segments(of: path))
        let shown: String
        switch ServerRoute.match(method, segments) {
        case .api(.found(let endpoint, _)): shown = endpoint.isOpen ? "api found open" : "api found"
        case .api(.methodNotAllowed(let allowed)): shown = "api 405 " + allowed.joined(separator: ", ")
        case .api(.notFound): shown = "api 404"
        case .page(.found): shown = "page found"
        case .page(.methodNotAllowed(let allowed)): shown = "page 405 " + allowed.joined(separator: ", ")
        case .page(.notFound): shown = "page 404"
        }
        #expect(shown == expected)
    }

    @Test("the metrics label a request by the pattern it reached; pages are one label", arguments: [
        ("GET", "/v1/habits/water", "/v1/habits/:name"),
        ("GET", "/v1/nowhere", "unknown"),
        ("GET", "/habits/water", "pages"),
        ("GET", "/healthz", "/healthz"),
        ("OPTIONS", "/", "preflight"),
    ])
    func labels(_ method: String, _ path: String, _ label: String) {
        #expect(AccessLog.routeLabel(HTTPRequest(method: method, path: path)) == label)
    }

    @Test("without a token an unknown /v1 path is 401 like a known one; with one it is 404 or 405 in JSON")
    func refusedAfterAuthentication() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.api.handle(HTTPRequest(method: "GET", path: "/v1/nowhere")).status == 401)
        let missing = api.api.handle(HTTPRequest(method: "GET", path: "/v1/nowhere", authorization: "Bearer " + token))
        #expect(missing.status == 404 && String(decoding: missing.body, as: UTF8.self).contains("no such endpoint: /v1/nowhere"))
        let other = api.api.handle(HTTPRequest(method: "PUT", path: "/v1/today", authorization: "Bearer " + token))
        #expect(other.status == 405 && other.headers.contains { $0.0 == "Allow" && $0.1 == "GET" })
    }
}
