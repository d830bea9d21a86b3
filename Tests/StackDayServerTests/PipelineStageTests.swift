import Foundation
import StackDay
import StackDayApplication
@testable import StackDayServer
import Testing

/// Each stage of the request pipeline by itself, with a stand-in for the stages after it; and the
/// composed pipeline's order.
@Suite("pipeline stages")
struct PipelineStageTests {
    /// What the stages after one answer: `response`, or `error` thrown; the exchange they saw is kept.
    final class Next {
        var seen: Exchange?
        var calls = 0
        let response: HTTPResponse
        let error: (any Error)?

        init(_ response: HTTPResponse = .json(.object([:])), throwing error: (any Error)? = nil) {
            self.response = response
            self.error = error
        }

        func callAsFunction(_ exchange: Exchange) throws -> HTTPResponse {
            seen = exchange
            calls += 1
            if let error { throw error }
            return response
        }
    }

    static func request(_ method: String = "GET", _ path: String = "/v1/today", configure: (inout HTTPRequest) -> Void = { _ in }) -> HTTPRequest {
        var request = HTTPRequest(method: method, path: path)
        configure(&request)
        return request
    }

    static func header(_ response: HTTPResponse, _ name: String) -> String? { response.headers.first { $0.0 == name }?.1 }

    @Test("a trusted proxy says who the client is; once one is named, nobody else says it came over TLS", arguments: [
        (["10.0.0.1"], "10.0.0.1", "203.0.113.9", "https"),
        (["10.0.0.1"], "192.0.2.7", "192.0.2.7", nil),
        ([], "192.0.2.7", "192.0.2.7", "https"),
    ] as [([String], String, String, String?)])
    func trustedProxy(_ proxies: [String], _ peer: String, _ client: String, _ proto: String?) throws {
        let next = Next()
        let exchange = Exchange(Self.request { $0.address = peer; $0.forwardedFor = "198.51.100.1, 203.0.113.9"; $0.forwardedProto = "https" })
        _ = try TrustedProxy(proxies: proxies).answer(exchange, next: next.callAsFunction)
        #expect(next.seen?.request.address == client && next.seen?.request.forwardedProto == proto)
    }

    @Test("every answer carries X-Request-Id: the client's when reasonable, else a new one", arguments: [
        ("abc-123_x.y", true), ("bad id", false), (String(repeating: "a", count: 129), false), ("", false),
    ])
    func requestIdentity(_ given: String, _ kept: Bool) throws {
        let exchange = Exchange(Self.request { $0.requestID = given })
        let response = try RequestIdentity().answer(exchange, next: Next().callAsFunction)
        let id = try #require(Self.header(response, "X-Request-Id"))
        #expect(kept ? id == given : (id.count == 16 && id.allSatisfy(\.isHexDigit)))
        #expect(exchange.requestID == id)
    }

    @Test("one access line a request, as text or JSON, control characters escaped")
    func accessLog() throws {
        final class Lines: @unchecked Sendable {  // written under its lock
            let lock = NSLock()
            var all: [String] = []
        }
        let kept = Lines()
        for format in [APIOptions.LogFormat.text, .json] {
            let stage = AccessLog(format: format, metrics: Metrics(), log: { line in kept.lock.withLock { kept.all.append(line) } })
            let exchange = Exchange(Self.request("GET", "/v1/habits/a%0Ab") { $0.address = "192.0.2.1" })
            exchange.requestID = "r1"
            exchange.user = "ana"
            _ = try stage.answer(exchange, next: Next(.json(.object([:]), status: 404)).callAsFunction)
        }
        let lines = kept.lock.withLock { kept.all }
        #expect(lines.count == 2)
        // `{}` and its line end: 3 bytes.
        #expect(lines[0].contains(" 192.0.2.1 r1 GET /v1/habits/a\\x0Ab 404 3B ") && lines[0].hasSuffix("ms ana"), "\(lines[0])")
        let json = try JSONValue(parsing: lines[1]).objectValue
        #expect(json?["status"] == .number(404) && json?["user"] == .string("ana") && json?["path"] == .string("/v1/habits/a\nb") && json?["requestId"] == .string("r1"))
    }

    @Test("CORS for an allowed origin only, a preflight answered here, HSTS with TLS")
    func crossOrigin() throws {
        let stage = CrossOrigin(allowedOrigins: ["https://app.example"], strictTransportSecurity: true)
        let next = Next()
        let preflight = try stage.answer(Exchange(Self.request("OPTIONS") { $0.origin = "https://app.example" }), next: next.callAsFunction)
        #expect(preflight.status == 204 && next.calls == 0)
        #expect(Self.header(preflight, "Access-Control-Allow-Methods") != nil && Self.header(preflight, "Access-Control-Allow-Origin") == "https://app.example")
        let other = try stage.answer(Exchange(Self.request { $0.origin = "https://evil.example" }), next: next.callAsFunction)
        #expect(next.calls == 1 && Self.header(other, "Access-Control-Allow-Origin") == nil)
        #expect(Self.header(other, "Strict-Transport-Security") == "max-age=31536000")
        let plain = try CrossOrigin(allowedOrigins: [], strictTransportSecurity: false).answer(Exchange(Self.request()), next: next.callAsFunction)
        #expect(Self.header(plain, "Strict-Transport-Security") == nil)
    }

    @Test("errors become JSON answers with their status", arguments: [
        (APIError.methodNotAllowed("PUT", allowed: ["GET"]) as any Error, 405, "method_not_allowed"),
        (RequestError("unknown field 'x'"), 400, "bad_request"),
        (UseCaseError.habitNotFound(name: "w"), 404, "habit_not_found"),
        (APIError.unauthorized, 401, "unauthorized"),
    ])
    func errorMapping(_ error: any Error, _ status: Int, _ code: String) throws {
        let response = try ErrorMapping(metrics: Metrics()).answer(Exchange(Self.request()), next: Next(throwing: error).callAsFunction)
        #expect(response.status == status)
        let body = try JSONValue(parsing: String(decoding: response.body, as: UTF8.self))
        #expect(body.objectValue?["error"]?.objectValue?["code"] == .string(code))
        if status == 405 { #expect(Self.header(response, "Allow") == "GET") }
    }

    @Test("health and the API document before any limit; a path that is not UTF-8 is refused", arguments: [
        ("GET", "/healthz", 200, false), ("POST", "/healthz", 405, false), ("GET", "/v1/%FF", 400, false), ("GET", "/v1/today", 200, true),
        ("GET", "/openapi.json", 200, false),
    ])
    func openEndpoints(_ method: String, _ path: String, _ status: Int, _ passed: Bool) throws {
        let next = Next()
        let stage = OpenEndpoints { .object(["openapi": .string("3.1.0")]) }
        let response = (try? stage.answer(Exchange(Self.request(method, path)), next: next.callAsFunction)) ?? .error("", code: path.contains("%FF") ? .badRequest : .methodNotAllowed)
        #expect(response.status == status && (next.calls == 1) == passed)
    }

    @Test("a calendar feed's token reaches the access log as its first six characters only")
    func feedTokenRedacted() {
        let token = "fd_" + String(repeating: "ab12", count: 16)
        #expect(AccessLog.redacted("/v1/feeds/\(token).ics") == "/v1/feeds/fd_ab1…")
        #expect(AccessLog.redacted("/v1/habits/fd_x") == "/v1/habits/fd_x")
        #expect(AccessLog.redacted("/v1/today") == "/v1/today")
    }

    @Test("every reference in the API document names a schema the document holds")
    func documentReferencesResolve() throws {
        let document = OpenAPIDocument.document(policies: [])
        guard case .object(let root) = document, case .object(let components)? = root["components"],
              case .object(let schemas)? = components["schemas"] else { Issue.record("no components.schemas"); return }
        var references: [String] = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if case .string(let target)? = members["$ref"] { references.append(target) }
                members.values.forEach(walk)
            case .array(let items): items.forEach(walk)
            default: break
            }
        }
        walk(document)
        #expect(references.count > 40)
        let missing = Set(references.filter { !$0.hasPrefix("#/components/schemas/") || schemas[String($0.dropFirst("#/components/schemas/".count))] == nil })
        #expect(missing.isEmpty, "unresolved: \(missing.sorted())")
    }

    @Test("a body over the limit is 413 and goes no further")
    func bodyLimit() throws {
        let next = Next()
        #expect(throws: APIError.self) {
            try BodyLimit().answer(Exchange(HTTPRequest(method: "POST", path: "/v1/habits", bodyTooLarge: true)), next: next.callAsFunction)
        }
        #expect(next.calls == 0)
        #expect(try BodyLimit().answer(Exchange(Self.request()), next: next.callAsFunction).status == 200)
    }

    @Test("failed authentications are counted per address; past the limit the address waits, elsewhere it does not")
    func failedAuthentication() throws {
        let stage = FailedAuthentication(throttle: Throttle(limit: 2))
        let refused = Next(throwing: APIError.unauthorized)
        for _ in 0..<2 {
            #expect(throws: APIError.self) { try stage.answer(Exchange(Self.request { $0.address = "192.0.2.5" }), next: refused.callAsFunction) }
        }
        let waiting = try stage.answer(Exchange(Self.request { $0.address = "192.0.2.5" }), next: Next().callAsFunction)
        #expect(waiting.status == 429 && Self.header(waiting, "Retry-After") != nil)
        #expect(try stage.answer(Exchange(Self.request { $0.address = "192.0.2.6" }), next: Next().callAsFunction).status == 200)
        #expect(try stage.answer(Exchange(Self.request("GET", "/app.css") { $0.address = "192.0.2.5" }), next: Next().callAsFunction).status == 200)
        // A page answering 401 (a wrong sign-in) counts too.
        let other = FailedAuthentication(throttle: Throttle(limit: 1))
        _ = try other.answer(Exchange(Self.request("POST", "/session") { $0.address = "192.0.2.8" }), next: Next(.html("", status: 401)).callAsFunction)
        #expect(try other.answer(Exchange(Self.request("POST", "/session") { $0.address = "192.0.2.8" }), next: Next().callAsFunction).status == 429)
    }

    @Test("a user over --rate-limit waits, another does not")
    func rateLimit() throws {
        let stage = RateLimit(throttle: Throttle(limit: 2))
        func ask(_ user: String) throws -> Int {
            let exchange = Exchange(Self.request())
            exchange.user = user
            return try stage.answer(exchange, next: Next().callAsFunction).status
        }
        #expect(try [ask("ana"), ask("ana"), ask("ana"), ask("bo")] == [200, 200, 429, 200])
    }

    @Test("an Idempotency-Key replays the first answer, refuses another request and a malformed key")
    func idempotency() throws {
        let stage = Idempotency(keys: IdempotencyKeys(), clock: FixedClock(Date(timeIntervalSince1970: 1_791_900_000)))
        func send(_ body: String, key: String, next: Next) throws -> HTTPResponse {
            let exchange = Exchange(HTTPRequest(method: "POST", path: "/v1/habits", body: Array(body.utf8)))
            exchange.request.idempotencyKey = key
            exchange.user = "ana"
            return try stage.answer(exchange, next: next.callAsFunction)
        }
        let write = Next(.json(.object(["n": .number(1)]), status: 201))
        #expect(try send("{\"name\":\"a\"}", key: "k1", next: write).status == 201)
        let again = try send("{\"name\":\"a\"}", key: "k1", next: write)
        #expect(write.calls == 1 && again.status == 201 && Self.header(again, "Idempotent-Replayed") == "true")
        #expect(try send("{\"name\":\"b\"}", key: "k1", next: write).status == 422)
        #expect(throws: APIError.self) { try send("{}", key: "a key", next: write) }
        #expect(write.calls == 1)
    }

    @Test("the composed pipeline: the first stage sees the request first and the answer last")
    func order() throws {
        struct Mark: PipelineStage {
            let name: String
            let trail: Trail
            func answer(_ exchange: Exchange, next: (Exchange) throws -> HTTPResponse) throws -> HTTPResponse {
                trail.add("in \(name)")
                defer { trail.add("out \(name)") }
                return try next(exchange)
            }
        }
        final class Trail: @unchecked Sendable {  // used by one test on one thread
            var steps: [String] = []
            func add(_ step: String) { steps.append(step) }
        }
        let trail = Trail()
        let pipeline = Pipeline([Mark(name: "a", trail: trail), Mark(name: "b", trail: trail)]) { _ in trail.add("endpoint"); return .text("ok") }
        _ = try pipeline.answer(Exchange(Self.request()))
        #expect(trail.steps == ["in a", "in b", "endpoint", "out b", "out a"])
    }

    @Test("in the server: a missing token is 401, a creation has its Location")
    func composed() throws {
        let api = InProcessAPI()
        let token = try api.user("ana")
        #expect(api.get("/v1/today", authorization: nil).status == 401)
        let created = api.send("POST", "/v1/habits", token: token, body: #"{"name":"물 마시기"}"#)
        #expect(created.status == 201 && Self.header(created, "Location") == "/v1/habits/%EB%AC%BC%20%EB%A7%88%EC%8B%9C%EA%B8%B0")
        let record = api.send("POST", "/v1/habits/%EB%AC%BC%20%EB%A7%88%EC%8B%9C%EA%B8%B0/records", token: token, body: "{}")
        let day = try #require(JSONValue(parsing: String(decoding: record.body, as: UTF8.self)).objectValue?["day"]?.stringValue)
        #expect(record.status == 201 && Self.header(record, "Location") == "/v1/habits/%EB%AC%BC%20%EB%A7%88%EC%8B%9C%EA%B8%B0/records?from=\(day)&to=\(day)")
    }
}
