import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// What a client developer relies on: pages that say what they hold, habits paged like records,
/// answers a cache may keep and check, and a 405 that says what is allowed.
@Suite("API details")
struct APIDetailTests {
    func json(_ response: HTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    @Test("GET /v1/habits pages in creation order: next until the last page, every habit once")
    func habitPages() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        for index in 1...7 { #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"h\#(index)","start":"2026-10-01"}"#).status == 201) }
        var seen: [String] = []
        var path: String? = "/v1/habits?limit=3"
        while let current = path {
            let components = URLComponents(string: current)
            let request = HTTPRequest(method: "GET", path: components?.path ?? "", authorization: "Bearer \(token)",
                                      query: (components?.queryItems ?? []).map { ($0.name, $0.value ?? "") })
            let page = try json(api.api.handle(request))
            let habits = try #require(page["habits"] as? [[String: Any]])
            #expect(habits.count <= 3)
            seen += habits.compactMap { $0["name"] as? String }
            path = page["next"] as? String
        }
        #expect(seen == (1...7).map { "h\($0)" })
        #expect(api.api.handle(HTTPRequest(method: "GET", path: "/v1/habits", authorization: "Bearer \(token)", query: [("cursor", "nonsense")])).status == 400)
    }

    @Test("a records page says whose records, in which unit, over which days")
    func recordPage() throws {
        let api = InProcessAPI()
        let token = try api.user("bo")
        #expect(api.send("POST", "/v1/habits", token: token, body: #"{"name":"water","goal":8,"unit":"cups","start":"2026-10-01"}"#).status == 201)
        let request = HTTPRequest(method: "GET", path: "/v1/habits/water/records", authorization: "Bearer \(token)",
                                  query: [("from", "2026-10-02"), ("to", "2026-10-05")])
        let page = try json(api.api.handle(request))
        #expect(page["habit"] as? String == "water" && page["unit"] as? String == "cups")
        #expect(page["from"] as? String == "2026-10-02" && page["to"] as? String == "2026-10-05" && page["next"] is NSNull)
    }

    @Test("a 405 says what is allowed")
    func allow() throws {
        let api = InProcessAPI()
        let token = try api.user("cy")
        let refused = api.send("PATCH", "/v1/habits", token: token, body: "{}")
        #expect(refused.status == 405)
        #expect(refused.headers.contains { $0.0 == "Allow" && $0.1 == "GET, POST" }, "\(refused.headers)")
    }
}
