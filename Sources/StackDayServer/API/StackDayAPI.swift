import Foundation
import StackDay
import StackDayApplication
import StackDayEngine
import StackDayExchange
import StackDayLua

/// The HTTP JSON API over the use cases: each request authenticated by its bearer token, run as
/// that user (its store scope, its own policy resolver, its time zone and day start), and
/// answered with the JSON the matching `--json` command prints.
///
/// Requests run on the HTTP server's threads; a pool of `OwnerContexts` gives each one a store
/// connection and Lua states no other thread is using.
public final class StackDayAPI: Sendable {
    private let pool: ContextPool
    private let clock: any StackDay.Clock
    private let log: @Sendable (String) -> Void
    private let answers: AnswerCache?
    private let requestBudget: PolicyRequestBudget?
    private let stateBytes: Int
    private let pages: PageOptions
    private let options: APIOptions
    private let failures: Throttle
    /// `--rate-limit`: requests a minute, per user.
    private let perUser: Throttle?
    /// Which user each credential seen here belongs to (`clientKey`).
    private let directory = ClientDirectory()
    /// The kept answers of writes sent with an `Idempotency-Key`.
    private let idempotency = IdempotencyKeys()
    /// What `--metrics-listen` serves.
    public let metrics = Metrics()
    private let makePolicies: @Sendable () throws -> any PolicyResolver
    /// The API document, made on first request from the route table and the policies' catalog.
    private let openAPI = Once<JSONValue>()

    /// `makeStore` and `makePolicies` are called on server threads, once per pooled context
    /// (stores) and once per owner in it (policies). `log` gets one access line per request.
    /// `cachesAnswers` keeps each user's read answers until that user's next write (`AnswerCache`),
    /// and reads and keeps the store's cached evaluations; without it every read is computed.
    /// `requestBudget` is the policy work one request may do in all (nil: only the per-call
    /// budgets); a user whose Lua state holds more than `stateBytes` after a request has it
    /// dropped, to be made anew on the user's next request.
    public init(
        clock: any StackDay.Clock,
        makeStore: @escaping @Sendable () throws -> any HabitStore,
        makePolicies: @escaping @Sendable () throws -> any PolicyResolver,
        cachesAnswers: Bool = true,
        requestBudget: PolicyRequestBudget? = .standard,
        stateBytes: Int = 32 << 20,
        pages: PageOptions = PageOptions(),
        options: APIOptions = APIOptions(),
        log: @escaping @Sendable (String) -> Void
    ) {
        self.pages = pages
        self.options = options
        self.makePolicies = makePolicies
        failures = Throttle(limit: options.failuresPerMinute)
        perUser = options.rateLimit.map { Throttle(limit: $0) }
        self.clock = clock
        self.log = log
        self.requestBudget = requestBudget
        self.stateBytes = stateBytes
        answers = cachesAnswers ? AnswerCache() : nil
        // Without kept answers, no cached evaluations either: `--no-cache` computes every read.
        pool = ContextPool { OwnerContexts(makeStore: makeStore, makePolicies: makePolicies, usesEvaluationCache: cachesAnswers) }
    }

    /// Answers one request; never throws (every failure is a status and `{"error": {"code", "message"}}`).
    /// Every answer carries `X-Request-Id`; one access line is logged per request.
    public func handle(_ incoming: HTTPRequest) -> HTTPResponse {
        var request = incoming
        // A trusted proxy says who the client is and whether it came over TLS; nobody else does.
        if options.trustedProxies.contains(request.address) {
            if let client = request.forwardedFor?.split(separator: ",").last?.trimmingCharacters(in: .whitespaces), !client.isEmpty {
                request.address = client
            }
        } else if !options.trustedProxies.isEmpty {
            request.forwardedProto = nil
        }
        let started = Date()
        metrics.begin()
        var user: String?
        var response: HTTPResponse
        let requestID = Self.requestID(request.requestID)
        do {
            if let requestBudget {
                response = try requestBudget.run { try route(request, user: &user) }
            } else {
                response = try route(request, user: &user)
            }
        } catch let error as APIError {
            response = .error(error.message, code: error.code)
            if !error.allowed.isEmpty { response.headers.append(("Allow", error.allowed.joined(separator: ", "))) }
        } catch let error as RequestError {
            response = .error(error.message, code: .badRequest)
        } catch {
            response = Self.response(for: error)
            switch ErrorCode.of(error) {
            case .policyBudgetExceeded: metrics.policyFailed("budget")
            case .policyFailed: metrics.policyFailed("error")
            case .storeFailed: metrics.storeFailed()
            default: break
            }
        }
        if response.status == 401, request.path.hasPrefix("/v1") || request.path == "/session" || request.path == "/pair" { failures.record(request.address) }
        response.headers.append(("X-Request-Id", requestID))
        if options.strictTransportSecurity { response.headers.append(("Strict-Transport-Security", "max-age=31536000")) }
        if let origin = request.origin, options.allowedOrigins.contains(origin) {
            response.headers += [("Access-Control-Allow-Origin", origin), ("Vary", "Origin"), ("Access-Control-Expose-Headers", "ETag, Location, X-Request-Id, Retry-After")]
        }
        let seconds = Date().timeIntervalSince(started)
        metrics.end(route: Self.routeLabel(request), status: response.status, seconds: seconds)
        log(accessLine(request, response, requestID: requestID, user: user, seconds: seconds, at: started))
        return response
    }

    /// The client's request id when it is a reasonable one (1–128 of `A-Z a-z 0-9 . _ -`), else a new one.
    static func requestID(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count),
           given.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x2E || $0 == 0x5F || $0 == 0x2D }) {
            return given
        }
        var generator = SystemRandomNumberGenerator()
        return String(format: "%016llx", generator.next() as UInt64)
    }

    /// The route a request reached, as its pattern (`/v1/habits/:name`), for the metrics' labels.
    static func routeLabel(_ request: HTTPRequest) -> String {
        guard let parts = Router<HabitRoutes.Endpoint>.segments(of: request.path) else { return "invalid" }
        if parts.first == "v1" {
            return HabitRoutes.router.pattern(request.method, Array(parts.dropFirst())).map { "/v1/" + $0 } ?? "unknown"
        }
        if request.method == "OPTIONS" { return "preflight" }
        if parts == ["healthz"] || parts == ["openapi.json"] { return "/" + parts[0] }
        return "pages"
    }

    /// One access line: ISO 8601 time, client address, request id, method, path (never the query),
    /// status, bytes, milliseconds and user; as text or as one JSON object.
    func accessLine(_ request: HTTPRequest, _ response: HTTPResponse, requestID: String, user: String?, seconds: Double, at time: Date) -> String {
        let path = request.path.removingPercentEncoding ?? request.path
        let milliseconds = Int((seconds * 1000).rounded())
        let when = InstantText.format(time)
        switch options.logFormat {
        case .json:
            return JSONValue.object([
                "time": .string(when), "address": .string(request.address), "requestId": .string(requestID), "method": .string(request.method),
                "path": .string(path), "status": .number(Double(response.status)), "bytes": .number(Double(response.body.count)),
                "ms": .number(Double(milliseconds)), "user": user.map(JSONValue.string) ?? .null,
            ]).jsonText
        case .text:
            return "\(when) \(request.address.isEmpty ? "-" : request.address) \(requestID) \(Self.loggable(request.method)) \(Self.loggable(path)) "
                + "\(response.status) \(response.body.count)B \(milliseconds)ms \(Self.loggable(user ?? "-"))"
        }
    }

    /// `text` with control characters (and backslashes) written as escapes: a path or name sent
    /// by a client cannot start a new log line or send a terminal escape.
    static func loggable(_ text: String) -> String {
        ControlEscapes.escaped(text, backslashes: true)
    }

    /// Whether a failure is the store's (a lost connection, a file gone read-only): the context
    /// that met it is not used again.
    static func isStoreFailure(_ error: any Error) -> Bool {
        !(error is APIError) && ErrorCode.of(error) == .storeFailed
    }

    /// The answer for an error a use case threw: its code (`ErrorCode.of`), that code's status, and
    /// the error's message.
    static func response(for error: any Error) -> HTTPResponse {
        let code = ErrorCode.of(error)
        switch error {
        case let failure as HabitFailure: return .error(failure.message, code: code)
        default: return .error(code == .storeFailed ? "the server could not answer: \(error)" : "\(error)", code: code)
        }
    }

    /// The HTTP status of a code.
    static func status(of code: ErrorCode) -> Int {
        switch code {
        case .habitNotFound, .userNotFound, .revisionNotFound, .completionNotFound, .policyNotFound, .notFound, .deviceNotFound: 404
        case .duplicateName, .userExists, .idempotencyKeyInUse, .deviceCopied: 409
        case .invalidParameter, .invalidInput, .readOutOfBounds, .badRequest, .usage: 400
        case .policyFailed, .policyBudgetExceeded, .idempotencyKeyReused: 422
        case .unauthorized, .pairingFailed: 401
        case .forbidden: 403
        case .methodNotAllowed: 405
        case .bodyTooLarge, .policyTooLarge: 413
        case .serverBusy: 503
        case .serverUnreachable, .tlsFailed: 502
        case .tooManyRequests: 429
        case .storeFailed: 500
        }
    }

    private func route(_ request: HTTPRequest, user: inout String?) throws -> HTTPResponse {
        guard let parts = Router<HabitRoutes.Endpoint>.segments(of: request.path) else {
            throw APIError.badRequest("the path is not valid percent-encoded UTF-8")
        }
        if parts == ["healthz"] {
            guard request.method == "GET" else { throw APIError.methodNotAllowed(request.method) }
            return .text("ok\n")
        }
        if request.method == "OPTIONS" { return preflight(request) }
        if parts == ["openapi.json"] {
            guard request.method == "GET" else { throw APIError.methodNotAllowed(request.method) }
            return .json(try openAPI.value { OpenAPIDocument.document(policies: try makePolicies().catalog()) })
        }
        if request.bodyTooLarge { throw APIError.tooLarge }
        // Guessing tokens is bounded: an address with too many failed authentications waits,
        // whatever it sends, until its oldest failure is a minute old.
        if parts.first == "v1" || parts == ["session"] || parts == ["pair"], let wait = failures.wait(for: request.address) {
            var answer = HTTPResponse.error("too many failed sign-ins from this address; try again in \(wait) s", code: .tooManyRequests)
            answer.headers.append(("Retry-After", String(wait)))
            return answer
        }
        // A calendar feed: the token in the path is the credential, since calendar apps send no
        // headers (an unknown one counts as a failed authentication).
        if parts.count == 3, parts[0] == "v1", parts[1] == "feeds", request.method == "GET" {
            return try pool.with { contexts in try feed(parts[2], request, contexts) }
        }
        // Pairing: the code is the credential (a wrong one counts as a failed authentication).
        if parts == ["v1", "devices", "pair"], request.method == "POST" {
            return try pool.with { contexts in
                try HabitRoutes.pair(request, context: HabitContext(store: try contexts.baseStore(), clock: clock, boundary: DayBoundary(timeZone: .gmt)))
            }
        }
        guard parts.first == "v1" else {
            return try pool.with { contexts in
                let routes = PageRoutes(request: request, clock: clock, options: pages)
                let answer = try routes.answer(parts, contexts: contexts, user: &user)
                if let user, let session = routes.sessionCookie { directory.learn(session, user: user) }
                return answer
            }
        }
        return try pool.with { contexts in
            let account = try authenticate(request, contexts)
            user = account.name
            if let perUser {
                if let wait = perUser.wait(for: account.name) {
                    var answer = HTTPResponse.error("over \(perUser.limit) requests a minute; try again in \(wait) s", code: .tooManyRequests)
                    answer.headers.append(("Retry-After", String(wait)))
                    return answer
                }
                perUser.record(account.name)
            }
            let context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
            defer { contexts.release(account.name, holdingMoreThan: stateBytes) }
            var routes = HabitRoutes(app: Application(context: context), user: account, request: request, users: ManageUsers(context: context))
            routes.tls = options.strictTransportSecurity
            if Self.writeMethods.contains(request.method), let key = request.idempotencyKey {
                return try idempotently(key, user: account.name, request: request) {
                    Self.locating(try routes.answer(Array(parts.dropFirst())), request: request, parts: parts)
                }
            }
            guard request.method == "GET", let count = try context.store.changeCount() else {
                return Self.locating(try routes.answer(Array(parts.dropFirst())), request: request, parts: parts)
            }
            let query = request.query.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            let key = [account.name, request.path, query, context.today.iso, account.timeZone, account.dayStart.description, String(count)]
                .joined(separator: "\u{1}")
            // The answer's version: the user's change counter, the day, the path and the query.
            let etag = "W/\"" + Self.fnv(key) + "\""
            if let unchanged = Self.unchanged(request, etag: etag, contentType: "application/json") { return unchanged }
            var response: HTTPResponse
            if let kept = answers?.answer(for: key) {
                metrics.keptAnswer(served: true)
                response = kept
            } else {
                response = try routes.answer(Array(parts.dropFirst()))
                if response.status == 200 {
                    answers?.keep(response, for: key)
                    metrics.keptAnswer(served: false)
                }
            }
            // An answer with a version may be kept by the client, asked again with If-None-Match.
            return response.status == 200 ? Self.versioned(response, etag: etag) : response
        }
    }

    /// `GET /v1/feeds/{token}.ics`: the user's habits as an iCalendar feed (`CalendarFeedView`),
    /// with an `ETag` of its text, so that an hourly fetch of an unchanged feed is a 304.
    private func feed(_ file: String, _ request: HTTPRequest, _ contexts: OwnerContexts) throws -> HTTPResponse {
        let base = HabitContext(store: try contexts.baseStore(), clock: clock, boundary: DayBoundary(timeZone: .gmt))
        guard file.hasSuffix(".ics"), let account = try ManageUsers(context: base).user(feedToken: String(file.dropLast(4))) else {
            failures.record(request.address)
            throw APIError.notFound("no such feed: ask for the address again (Settings › Calendar feed, or stackday user feed NAME)")
        }
        let context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
        defer { contexts.release(account.name, holdingMoreThan: stateBytes) }
        let text = try Application(context: context).calendarFeed(title: "StackDay · \(account.name)").text
        let etag = "W/\"" + Self.fnv(text) + "\""
        if let unchanged = Self.unchanged(request, etag: etag, contentType: "text/calendar; charset=utf-8") { return unchanged }
        let answer = Self.versioned(HTTPResponse.text(text, contentType: "text/calendar; charset=utf-8"), etag: etag)
        return answer
    }

    /// A 304 for a request whose `If-None-Match` names `etag` (or `*`); nil otherwise.
    static func unchanged(_ request: HTTPRequest, etag: String, contentType: String) -> HTTPResponse? {
        guard request.ifNoneMatch?.split(separator: ",").contains(where: { $0.trimmingCharacters(in: .whitespaces) == etag || $0 == "*" }) == true else {
            return nil
        }
        return versioned(HTTPResponse(status: 304, contentType: contentType, body: []), etag: etag)
    }

    /// `response` with its version: a client may keep it and ask again with `If-None-Match`.
    static func versioned(_ response: HTTPResponse, etag: String) -> HTTPResponse {
        var versioned = response
        versioned.headers += [("ETag", etag), ("Cache-Control", "private, no-cache")]
        return versioned
    }

    /// The methods that write, which an `Idempotency-Key` applies to.
    static let writeMethods: Set<String> = ["POST", "PUT", "PATCH", "DELETE"]

    /// A write sent with `key`: the first answer again for a retry (`Idempotent-Replayed: true`),
    /// a refusal for a key in use or used with another request, else `write`'s answer, kept.
    private func idempotently(_ key: String, user: String, request: HTTPRequest, write: () throws -> HTTPResponse) throws -> HTTPResponse {
        guard IdempotencyKeys.isValid(key) else {
            throw APIError.badRequest("Idempotency-Key must be 1 to 255 visible ASCII characters")
        }
        switch idempotency.claim(key, user: user, request: request, now: clock.now) {
        case .replay(var answer):
            answer.headers.append(("Idempotent-Replayed", "true"))
            return answer
        case .refuse(let code, let message):
            return .error(message, code: code)
        case .run:
            do {
                let answer = try write()
                idempotency.finish(key, user: user, answer: answer)
                return answer
            } catch {
                idempotency.finish(key, user: user, answer: Self.response(for: error))
                throw error
            }
        }
    }

    /// A preflight (`OPTIONS`): 204 with what may be sent; the CORS headers only for an allowed origin
    /// (`handle` adds `Access-Control-Allow-Origin`).
    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var answer = HTTPResponse(status: 204, contentType: "text/plain; charset=utf-8", body: [])
        answer.headers.append(("Allow", "GET, POST, PUT, PATCH, DELETE, OPTIONS"))
        if let origin = request.origin, options.allowedOrigins.contains(origin) {
            answer.headers += [("Access-Control-Allow-Methods", "GET, POST, PUT, PATCH, DELETE"),
                               ("Access-Control-Allow-Headers", "Authorization, Content-Type, If-None-Match, Idempotency-Key, X-Request-Id"),
                               ("Access-Control-Max-Age", "600")]
        }
        return answer
    }

    /// A 201 with the `Location` of what it made.
    static func locating(_ response: HTTPResponse, request: HTTPRequest, parts: [String]) -> HTTPResponse {
        guard response.status == 201 else { return response }
        var located = response
        let path = parts.dropFirst().map(PagePaths.segment).joined(separator: "/")
        var location: String
        switch (request.method, Array(parts.dropFirst())) {
        case ("POST", ["habits"]):
            let name = (try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self)))?.objectValue?["name"]?.stringValue ?? ""
            location = "/v1/habits/" + PagePaths.segment(name)
        case ("POST", let segments) where segments.count == 3 && ["records", "skips"].contains(segments[2]):
            let day = (try? JSONValue(parsing: String(decoding: response.body, as: UTF8.self)))?.objectValue?["day"]?.stringValue
            location = "/v1/habits/\(PagePaths.segment(segments[1]))/records" + (day.map { "?from=\($0)&to=\($0)" } ?? "")
        case ("POST", let segments) where segments.count == 3 && segments[2] == "rollback":
            location = "/v1/habits/\(PagePaths.segment(segments[1]))/revisions"
        default:
            location = "/v1/" + path
        }
        located.headers.append(("Location", location))
        return located
    }

    /// The metrics' exposition text, with the open sessions counted in the store.
    public func metricsText(connections: Int? = nil) -> String {
        let sessions = try? pool.with { contexts in try contexts.baseStore().read { try $0.users.sessionCount(at: clock.now) } }
        return metrics.text(sessions: sessions, connections: connections)
    }

    /// 64-bit FNV-1a of `text`, as 16 hex digits.
    static func fnv(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(format: "%016llx", hash)
    }

    /// The user of the request's bearer token; 401 without one, for an unknown one, or for one
    /// not written exactly `Bearer TOKEN` (one space, nothing around it).
    private func authenticate(_ request: HTTPRequest, _ contexts: OwnerContexts) throws -> User {
        guard let token = request.authorization.flatMap(Tokens.bearer), let user = try Tokens.user(of: token, contexts, at: clock.now) else {
            throw APIError.unauthorized
        }
        directory.learn(token, user: user.name)
        return user
    }

    /// The name of the web app's session cookie (for `HTTPServerOptions.sessionCookie`).
    public static let sessionCookie = PageRoutes.cookie

    /// The fair queue's key for a credential (`HTTPServerOptions.clientKey`): the user it
    /// authenticated as here, or 0 when it has not.
    public func clientKey(of credential: String) -> UInt64 { directory.key(of: credential) }
}
