import Foundation
@testable import StackDayServer
import Testing

/// What a client developer expects of the API beyond its answers, through the pipeline in
/// process: conditional requests, caching headers, `Location`, paging and notes. (Request ids
/// with the access log, throttling, proxies and CORS are checked on a real server, in
/// `StackdayCLITests/APIConventionTests`.)
@Suite("API conventions, in process")
struct APIConventionTests {
    /// A server with user `ana` and her habit `water` (goal 8 from 2026-10-01).
    func serve() throws -> (InProcessServer, String) {
        let server = try InProcessServer()
        let ana = try server.user("ana")
        #expect(server.send("POST", "/v1/habits", token: ana, body: #"{"name":"water","goal":8,"start":"2026-10-01"}"#).status == 201)
        return (server, ana)
    }

    @Test("every GET under /v1 has an ETag; If-None-Match answers 304 with no body until a write; a 201 has a Location")
    func conditional() throws {
        let (client, ana) = try serve()
        for path in ["/v1/today", "/v1/stats", "/v1/habits", "/v1/habits/water", "/v1/calendar/water", "/v1/habits/water/revisions", "/v1/settings"] {
            let first = client.send("GET", path, token: ana)
            let etag = try #require(first.headers["etag"], "\(path) has no ETag")
            let again = client.send("GET", path, token: ana, headers: ["If-None-Match": etag])
            #expect(again.status == 304 && again.body.isEmpty && again.headers["etag"] == etag, "\(path): \(again.status)")
            #expect(client.send("GET", path + "?x=1", token: ana).headers["etag"] != etag || path.contains("?"), "\(path): the query is not in the ETag")
        }
        let etag = try #require(client.send("GET", "/v1/today", token: ana).headers["etag"])
        let recorded = client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":3,"on":"2026-10-10"}"#)
        #expect(recorded.status == 201 && recorded.headers["location"] == "/v1/habits/water/records?from=2026-10-10&to=2026-10-10")
        let changed = client.send("GET", "/v1/today", token: ana, headers: ["If-None-Match": etag])
        #expect(changed.status == 200 && changed.headers["etag"] != etag)
        let created = client.send("POST", "/v1/habits", token: ana, body: #"{"name":"물 마시기"}"#)
        #expect(created.headers["location"] == "/v1/habits/%EB%AC%BC%20%EB%A7%88%EC%8B%9C%EA%B8%B0", "\(created.headers)")
        let located = client.send("GET", created.headers["location"] ?? "", token: ana)
        #expect(located.status == 200 && located.body.contains("물 마시기"))
    }

    @Test("an answer with an ETag may be kept and checked again: Cache-Control private, no-cache, on the 304 too")
    func cacheControl() throws {
        let (server, ana) = try serve()
        let today = server.send("GET", "/v1/today", token: ana)
        let etag = try #require(today.headers["etag"])
        #expect(today.headers["cache-control"] == "private, no-cache")
        let again = server.send("GET", "/v1/today", token: ana, headers: ["If-None-Match": etag])
        #expect(again.status == 304 && again.headers["cache-control"] == "private, no-cache")
        // An answer without a version says nothing here: the HTTP server's default, no-store, applies
        // (checked on a real server in StackdayCLITests/APIConventionTests).
        #expect(server.send("POST", "/v1/habits", token: ana, body: #"{"name":"x"}"#).headers["cache-control"] == nil)
    }

    @Test("records page by a cursor: limit (default 100, at most 1000), next until the last page; records written meanwhile do not repeat or skip one")
    func paging() throws {
        let (client, ana) = try serve()
        for day in 1...9 {
            for amount in [1, 2] {
                #expect(client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":\#(amount),"on":"2026-10-0\#(day)"}"#).status == 201)
            }
        }
        var seen: [String] = []
        var next: String? = "/v1/habits/water/records?limit=4"
        var pages = 0
        while let path = next {
            let page = client.send("GET", path, token: ana)
            #expect(page.status == 200, "\(path): \(page.body)")
            let object = try #require(try JSONSerialization.jsonObject(with: Data(page.body.utf8)) as? [String: Any])
            seen += (object["records"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
            next = object["next"] as? String
            pages += 1
            // A record written between pages, on a day already paged past.
            if pages == 2 { #expect(client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":5,"on":"2026-10-01"}"#).status == 201) }
        }
        let stored = client.send("GET", "/v1/habits/water/records?limit=1000", token: ana).body
        #expect(seen.count == 18 && Set(seen).count == 18 && pages == 5, "\(seen.count) records in \(pages) pages")
        #expect(seen.allSatisfy { stored.contains($0) })
        #expect(client.send("GET", "/v1/habits/water/records?limit=1001", token: ana).status == 400)
        #expect(client.send("GET", "/v1/habits/water/records?cursor=nonsense", token: ana).status == 400)
        let all = client.send("GET", "/v1/habits/water/records", token: ana).body
        #expect(all.contains(#""next":null"#) && all.components(separatedBy: #""id""#).count == 20)
    }

    @Test("POST …/records keeps a note, GET …/records gives it back; a note past 1000 characters is a 400 and nothing is written")
    func notes() throws {
        let (client, ana) = try serve()
        let recorded = client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":2,"on":"2026-10-03","note":"비, \"heavy\"\nrain"}"#)
        #expect(recorded.status == 201 && recorded.body.contains(#""note":"비, \"heavy\"\nrain""#), "\(recorded.body)")
        #expect(client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":1,"on":"2026-10-04"}"#).body.contains(#""note":null"#))
        let page = client.send("GET", "/v1/habits/water/records?from=2026-10-03&to=2026-10-03", token: ana).body
        #expect(page.contains(#""note":"비, \"heavy\"\nrain""#) && page.contains(#""recordedAt":"#), "\(page)")
        let long = String(repeating: "x", count: 1001)
        let refused = client.send("POST", "/v1/habits/water/records", token: ana, body: #"{"amount":1,"on":"2026-10-05","note":"\#(long)"}"#)
        #expect(refused.status == 400 && refused.body.contains("a note can have at most 1000 characters"), "\(refused.status) \(refused.body)")
        #expect(client.send("GET", "/v1/habits/water/records", token: ana).body.components(separatedBy: #""id""#).count == 3, "the refused note wrote nothing")
    }
}
