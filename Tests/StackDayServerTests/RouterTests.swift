import Testing
@testable import StackDayServer

@Suite("Router: one table, paths split before they are decoded")
struct RouterTests {
    static let router = Router<String>([
        ("GET", "habits", "list"), ("POST", "habits", "create"), ("GET", "habits/:name", "show"), ("DELETE", "habits/:name", "delete"),
        ("POST", "habits/:name/records", "record"), ("DELETE", "habits/:name/records/latest", "undo"), ("GET", "today", "today"),
    ])

    static func route(_ method: String, _ path: String) -> String {
        guard let segments = Router<String>.segments(of: path) else { return "bad path" }
        switch router.match(method, segments) {
        case .found(let name, let captures): return ([name] + captures).joined(separator: " ")
        case .methodNotAllowed(let allowed): return "405 " + allowed.joined(separator: ",")
        case .notFound: return "404"
        }
    }

    @Test(arguments: [
        ("GET", "/habits", "list"),
        ("POST", "/habits", "create"),
        ("GET", "/habits/water", "show water"),
        ("GET", "/habits/a%2Fb", "show a/b"),
        ("GET", "/habits/a%2Fb/records", "405 POST"),
        ("POST", "/habits/a%2Fb/records", "record a/b"),
        ("GET", "/habits/x%2Frecords", "show x/records"),
        ("GET", "/habits/100%25", "show 100%"),
        ("GET", "/habits/morning%20run", "show morning run"),
        ("GET", "/habits/%EB%AC%BC%20%EB%A7%88%EC%8B%9C%EA%B8%B0", "show 물 마시기"),
        ("GET", "/habits/caf%C3%A9", "show café"),
        ("DELETE", "/habits/x/records/latest", "undo x"),
        ("POST", "/habits/x/records/latest", "405 DELETE"),
        ("GET", "/habits/", "404"),
        ("GET", "/habits//records", "404"),
        ("GET", "/nothing", "404"),
        ("PATCH", "/today", "405 GET"),
        ("GET", "/habits/%ZZ", "bad path"),
        ("GET", "/habits/%C3", "bad path"),
        ("GET", "/habits/a%2F..%2F..%2Fetc", "show a/../../etc"),
    ])
    func routes(method: String, path: String, expected: String) {
        #expect(Self.route(method, path) == expected)
    }

    @Test("segments keep empty parts, so a trailing slash is its own path")
    func segments() {
        #expect(Router<String>.segments(of: "/v1/habits/") == ["v1", "habits", ""])
        #expect(Router<String>.segments(of: "/") == [""])
        #expect(Router<String>.segments(of: "/v1/a%2Fb") == ["v1", "a/b"])
    }
}
