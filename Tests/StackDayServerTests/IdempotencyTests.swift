import Foundation
import StackDay
@testable import StackDayServer
import Testing

@Suite("Idempotency-Key: a retried write is answered as the first time and written once")
struct IdempotencyTests {
    static let water = #"{"name":"water","goal":8,"unit":"cups","start":"2026-10-01"}"#

    func header(_ response: HTTPResponse, _ name: String) -> String? { response.headers.first { $0.name == name }?.value }

    func habitCount(_ server: InProcessAPI, _ token: String) throws -> Int {
        let listed = server.get("/v1/habits", authorization: "Bearer \(token)")
        let value = try JSONValue(parsing: String(decoding: listed.body, as: UTF8.self))
        return value.objectValue?["habits"]?.arrayValue?.count ?? -1
    }

    @Test("a retry with the same key gets the first answer, marked replayed, and nothing is written again")
    func replayed() throws {
        let server = InProcessAPI()
        let token = try server.user("ana")
        let first = server.send("POST", "/v1/habits", token: token, body: Self.water, key: "k-1")
        let again = server.send("POST", "/v1/habits", token: token, body: Self.water, key: "k-1")
        #expect(first.status == 201 && again.status == 201)
        #expect(again.body == first.body && again.location == first.location && header(again, "Location") == header(first, "Location"))
        #expect(header(again, "Idempotent-Replayed") == "true" && header(first, "Idempotent-Replayed") == nil)
        #expect(try habitCount(server, token) == 1)
        // Without a key the same write is a new one (and refused: the name is taken).
        #expect(server.send("POST", "/v1/habits", token: token, body: Self.water).status == 409)
    }

    @Test("the same key with another request is 422; a key that is not 1–255 visible ASCII is 400; nothing is written")
    func refused() throws {
        let server = InProcessAPI()
        let token = try server.user("ana")
        #expect(server.send("POST", "/v1/habits", token: token, body: Self.water, key: "k-1").status == 201)
        let other = server.send("POST", "/v1/habits", token: token, body: Self.water.replacingOccurrences(of: "water", with: "tea"), key: "k-1")
        #expect(other.status == 422 && String(decoding: other.body, as: UTF8.self).contains("idempotency_key_reused"))
        for bad in ["", "has space", String(repeating: "k", count: 256), "é"] {
            #expect(server.send("POST", "/v1/habits", token: token, body: #"{"name":"x","start":"2026-10-01"}"#, key: bad).status == 400, "\(bad)")
        }
        #expect(try habitCount(server, token) == 1)
    }

    @Test("a failed write lets its key go: the retry runs again; keys are each user's own")
    func failedAndPerUser() throws {
        let server = InProcessAPI()
        let ana = try server.user("ana")
        let bob = try server.user("bob")
        #expect(server.send("POST", "/v1/habits", token: ana, body: Self.water).status == 201)
        #expect(server.send("POST", "/v1/habits", token: ana, body: Self.water, key: "k-2").status == 409)
        #expect(server.send("DELETE", "/v1/habits/water", token: ana).status == 204)
        #expect(server.send("POST", "/v1/habits", token: ana, body: Self.water, key: "k-2").status == 201, "the failed attempt kept nothing")
        // Bob's k-2 is not Ana's.
        let bobs = server.send("POST", "/v1/habits", token: bob, body: Self.water, key: "k-2")
        #expect(bobs.status == 201 && header(bobs, "Idempotent-Replayed") == nil)
        #expect(try habitCount(server, bob) == 1)
    }

    @Test("a key in use is refused; a key expires after 24 hours; the store of keys is bounded")
    func expiresAndBounded() {
        let keys = IdempotencyKeys(capacity: 2)
        let request = HTTPRequest(method: "POST", path: "/v1/habits", body: Array("{}".utf8))
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let answer = HTTPResponse(status: 201, contentType: "application/json", body: [])
        guard case .run = keys.claim("a", user: "u", request: request, now: now) else { Issue.record("a is new"); return }
        // Taken and not answered yet: a second request with it is refused, not run.
        guard case .refuse(.idempotencyKeyInUse, _) = keys.claim("a", user: "u", request: request, now: now) else { Issue.record("a is in use"); return }
        keys.finish("a", user: "u", answer: answer)
        guard case .replay = keys.claim("a", user: "u", request: request, now: now.addingTimeInterval(3600)) else { Issue.record("a is kept"); return }
        guard case .run = keys.claim("a", user: "u", request: request, now: now.addingTimeInterval(24 * 3600 + 1)) else { Issue.record("a expired"); return }
        for key in ["b", "c", "d"] {
            guard case .run = keys.claim(key, user: "u", request: request, now: now.addingTimeInterval(24 * 3600 + 2)) else { Issue.record("\(key) is new"); return }
            keys.finish(key, user: "u", answer: answer)
        }
        // Past the bound the oldest went first: a is taken again as new.
        guard case .run = keys.claim("a", user: "u", request: request, now: now.addingTimeInterval(24 * 3600 + 3)) else { Issue.record("a was dropped"); return }
    }
}
