import Foundation
import StackDay
@testable import StackDayServer
import Testing

/// An in-memory store handed to the API's pool.
///
/// `@unchecked Sendable`: the tests call the API from one thread at a time, and the pool uses
/// one context (so one user of the store) at a time for them.
final class SharedStore: @unchecked Sendable {
    let store = InMemoryHabitStore()
}

/// The API's pipeline called directly, over an in-memory store.
final class InProcessAPI {
    let shared = SharedStore()
    var store: InMemoryHabitStore { shared.store }
    let api: StackDayAPI
    let clock = FixedClock(Date(timeIntervalSince1970: 1_791_900_000))

    init(options: APIOptions = APIOptions(), policies: @escaping @Sendable () -> any PolicyResolver = { StandardPolicyResolver() }) {
        let shared = self.shared
        api = StackDayAPI(clock: clock, makeStore: { shared.store }, makePolicies: policies, options: options, log: { _ in })
    }

    /// Adds a user; returns its token.
    func user(_ name: String) throws -> String {
        let context = HabitContext(store: store, clock: clock, boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!, dayStart: .midnight))
        return try ManageUsers(context: context).add(name, timeZone: "Asia/Seoul").token.text
    }

    func get(_ path: String, authorization: String?) -> HTTPResponse {
        api.handle(HTTPRequest(method: "GET", path: path, authorization: authorization))
    }

    /// A request with a JSON body and, when given, an `Idempotency-Key`.
    func send(_ method: String, _ path: String, token: String, body: String = "", key: String? = nil) -> HTTPResponse {
        var request = HTTPRequest(method: method, path: path, authorization: "Bearer \(token)", contentType: "application/json", body: Array(body.utf8))
        request.idempotencyKey = key
        return api.handle(request)
    }
}

@Suite("Credentials: written exactly, keyed by the user they belong to")
struct CredentialTests {
    @Test("of 22 spellings of one token only the exact one authenticates; the rest are 401")
    func strictBearer() throws {
        var options = APIOptions()
        options.failuresPerMinute = 1000 // the address's failed sign-ins are counted elsewhere
        let server = InProcessAPI(options: options)
        let token = try server.user("ana")
        var spellings = (0...21).map { "Bearer " + String(repeating: " ", count: $0) + token }
        spellings += ["bearer \(token)", "BEARER \(token)", "Bearer \(token) ", "Bearer \(token)x", "Bearer\t\(token)", "Bearer \(token.uppercased())", "Token \(token)"]
        let statuses = spellings.map { server.get("/v1/habits", authorization: $0).status }
        // The scheme's case is free (RFC 7235); one space, a well-formed token and nothing more.
        #expect(statuses[0] == 200)
        #expect(statuses[22] == 200 && statuses[23] == 200)
        #expect(Array(statuses[1...21]) == Array(repeating: 401, count: 21))
        #expect(Array(statuses[24...]) == Array(repeating: 401, count: 5))
    }

    @Test("every credential of a user has the user's key once it has authenticated; others have none")
    func oneKeyPerUser() throws {
        let server = InProcessAPI()
        let first = try server.user("ana")
        let bob = try server.user("bob")
        let context = HabitContext(store: server.store, clock: server.clock, boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!, dayStart: .midnight))
        let old = first
        let second = try ManageUsers(context: context).replaceToken(of: "ana").text
        #expect(server.api.clientKey(of: second) == 0, "not seen yet: keyed by address")
        #expect(server.get("/v1/habits", authorization: "Bearer \(second)").status == 200)
        _ = server.get("/v1/habits", authorization: "Bearer \(old)")
        _ = server.get("/v1/habits", authorization: "Bearer \(bob)")
        #expect(server.api.clientKey(of: second) == ClientDirectory.key(ofUser: "ana"))
        #expect(server.api.clientKey(of: old) == 0, "a replaced token never authenticated here")
        #expect(server.api.clientKey(of: bob) == ClientDirectory.key(ofUser: "bob"))
        #expect(server.api.clientKey(of: bob) != server.api.clientKey(of: second))
        #expect(server.api.clientKey(of: "sd_" + String(repeating: "0", count: 64)) == 0)
    }

    @Test("--rate-limit counts a user's requests whatever token carries them")
    func rateLimitPerUser() throws {
        var options = APIOptions()
        options.rateLimit = 3
        let server = InProcessAPI(options: options)
        let first = try server.user("ana")
        let context = HabitContext(store: server.store, clock: server.clock, boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!, dayStart: .midnight))
        #expect(server.get("/v1/habits", authorization: "Bearer \(first)").status == 200)
        let second = try ManageUsers(context: context).replaceToken(of: "ana").text
        let statuses = (0..<3).map { _ in server.get("/v1/habits", authorization: "Bearer \(second)").status }
        #expect(statuses == [200, 200, 429])
    }

    @Test("the directory is bounded: past its capacity it starts over")
    func bounded() {
        let directory = ClientDirectory(capacity: 4)
        for i in 0..<4 { directory.learn("c\(i)", user: "u") }
        #expect(directory.key(of: "c3") != 0)
        directory.learn("c4", user: "u")
        #expect(directory.key(of: "c0") == 0 && directory.key(of: "c4") == ClientDirectory.key(ofUser: "u"))
    }
}
