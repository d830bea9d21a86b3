import Foundation
import StackDay
import StackDayLua
import StackDaySQLite
@testable import StackDayServer
import StackDayTestSupport

/// `stackday serve` without the process: the API's pipeline over a SQLite file of its own, on a
/// fixed clock, called the way an HTTP client calls the server (a method, a path with its query,
/// headers), answered with the status, the headers (names lowercased) and the body as text. Its
/// access log is kept for `log()`. For what only a process shows (sockets, signals, framing) the
/// tests start a real server. A test uses it from one thread.
final class InProcessServer {
    struct Response {
        let status: Int
        let headers: [String: String]
        let body: String
    }

    let folder: TemporaryFolder
    let path: String
    let clock: FixedClock
    let api: StackDayAPI
    private let lines = LogLines()

    /// `now`: 2026-10-11 22:00 in Seoul unless given; users added by `user(_:)` live in Seoul.
    init(options: APIOptions = APIOptions(), now: Date = Date(timeIntervalSince1970: 1_791_723_600), policyFolder: URL? = nil) throws {
        // The built-in policies as the server runs them (it runs them in runner processes), and
        // the server's policy folder when given.
        let library = try PolicyLibrary(searchPath: policyFolder.map { [$0] } ?? [])
        folder = try TemporaryFolder()
        let path = folder.path("stackday.sqlite")
        self.path = path
        clock = FixedClock(now)
        _ = try SQLiteHabitStore(path: path)
        let lines = lines
        api = StackDayAPI(clock: clock, makeStore: { try SQLiteHabitStore(path: path) }, makePolicies: { library },
                          options: options, log: { lines.append($0) })
    }

    /// Adds a user in Seoul time; its token.
    func user(_ name: String) throws -> String {
        try ManageUsers(context: try administrator()).add(name, timeZone: "Asia/Seoul").token.text
    }

    /// The store as the command line on the server's machine reaches it (users, published scripts).
    func administrator() throws -> HabitContext {
        HabitContext(store: try SQLiteHabitStore(path: path), clock: clock,
                     boundary: DayBoundary(timeZone: TimeZone(identifier: "Asia/Seoul")!, dayStart: .midnight), policies: try PolicyLibrary(searchPath: []))
    }

    /// One request: `target` is a path with its query, as on a request line.
    func send(_ method: String, _ target: String, token: String? = nil, body: String? = nil, headers: [String: String] = [:],
              from address: String = "127.0.0.1") -> Response {
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query: [(key: String, value: String)] = parts.count > 1 ? parts[1].split(separator: "&").map { pair in
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map { String($0).removingPercentEncoding ?? String($0) }
            return (kv[0], kv.count > 1 ? kv[1] : "")
        } : []
        let named = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { $1 })
        var request = HTTPRequest(method: method, path: String(parts[0]), authorization: token.map { "Bearer \($0)" } ?? named["authorization"],
                                  cookie: named["cookie"], contentType: body == nil ? named["content-type"] : named["content-type"] ?? "application/json",
                                  query: query, body: Array((body ?? "").utf8))
        request.origin = named["origin"]
        request.host = named["host"] ?? "127.0.0.1"
        request.ifNoneMatch = named["if-none-match"]
        request.acceptLanguage = named["accept-language"]
        request.forwardedProto = named["x-forwarded-proto"]
        request.requestID = named["x-request-id"]
        request.preflightMethod = named["access-control-request-method"]
        request.forwardedFor = named["x-forwarded-for"]
        request.idempotencyKey = named["idempotency-key"]
        request.address = address
        let answer = api.handle(request)
        var answered: [String: String] = ["content-type": answer.contentType]
        if let location = answer.location { answered["location"] = location }
        if let cookie = answer.setCookie { answered["set-cookie"] = cookie }
        for (name, value) in answer.headers { answered[name.lowercased()] = value }
        return Response(status: answer.status, headers: answered, body: String(decoding: answer.body, as: UTF8.self))
    }

    /// The access log so far, a line each.
    func log() -> String { lines.text }

    /// Lines appended from the server's threads.
    final class LogLines: @unchecked Sendable {
        // Safe: `lines` is read and written under `lock`.
        private let lock = NSLock()
        private var lines: [String] = []
        func append(_ line: String) { lock.withLock { lines.append(line) } }
        var text: String { lock.withLock { lines.joined(separator: "\n") } }
    }
}
