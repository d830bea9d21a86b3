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

    /// `makeStore` and `makePolicies` are called on server threads, once per pooled context
    /// (stores) and once per owner in it (policies). `log` gets one access line per request.
    /// `cachesAnswers` keeps each user's read answers until that user's next write (`AnswerCache`).
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
        log: @escaping @Sendable (String) -> Void
    ) {
        self.pages = pages
        self.clock = clock
        self.log = log
        self.requestBudget = requestBudget
        self.stateBytes = stateBytes
        answers = cachesAnswers ? AnswerCache() : nil
        pool = ContextPool { OwnerContexts(makeStore: makeStore, makePolicies: makePolicies) }
    }

    /// Answers one request; never throws (every failure is a status and `{"error": {"code", "message"}}`).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let started = Date()
        var user: String?
        let response: HTTPResponse
        do {
            if let requestBudget {
                response = try requestBudget.run { try route(request, user: &user) }
            } else {
                response = try route(request, user: &user)
            }
        } catch let error as APIError {
            response = .error(error.message, code: error.code)
        } catch let error as RequestError {
            response = .error(error.message, code: .badRequest)
        } catch {
            response = Self.response(for: error)
        }
        let milliseconds = Int(Date().timeIntervalSince(started) * 1000)
        log("\(Self.loggable(request.method)) \(Self.loggable(request.path.removingPercentEncoding ?? request.path)) \(response.status) \(milliseconds)ms \(Self.loggable(user ?? "-"))")
        return response
    }

    /// `text` with control characters (and backslashes) written as escapes: a path or name sent
    /// by a client cannot start a new log line or send a terminal escape.
    static func loggable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F || $0 == "\\" || (0x80...0x9F).contains($0.value) }) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x5C: out += "\\\\"
            case 0..<0x20, 0x7F, 0x80...0x9F: out += String(format: "\\x%02X", scalar.value)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
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
        case .habitNotFound, .userNotFound, .revisionNotFound, .completionNotFound, .policyNotFound, .notFound: 404
        case .duplicateName, .userExists: 409
        case .invalidParameter, .invalidInput, .readOutOfBounds, .badRequest, .usage: 400
        case .policyFailed, .policyBudgetExceeded: 422
        case .unauthorized: 401
        case .forbidden: 403
        case .methodNotAllowed: 405
        case .bodyTooLarge: 413
        case .serverBusy: 503
        case .storeFailed: 500
        }
    }

    private func route(_ request: HTTPRequest, user: inout String?) throws -> HTTPResponse {
        guard let parts = Router<HabitRoutes.Handler>.segments(of: request.path) else {
            throw APIError.badRequest("the path is not valid percent-encoded UTF-8")
        }
        if parts == ["healthz"] {
            guard request.method == "GET" else { throw APIError.methodNotAllowed(request.method) }
            return .text("ok\n")
        }
        if request.bodyTooLarge { throw APIError.tooLarge }
        guard parts.first == "v1" else {
            return try pool.with { contexts in
                try PageRoutes(request: request, clock: clock, options: pages).answer(parts, contexts: contexts, user: &user)
            }
        }
        return try pool.with { contexts in
            let account = try authenticate(request, contexts)
            user = account.name
            let context = try contexts.context(for: account.name, clock: clock, boundary: account.boundary)
            defer { contexts.release(account.name, holdingMoreThan: stateBytes) }
            let routes = HabitRoutes(app: Application(context: context), user: account, request: request, users: ManageUsers(context: context))
            guard request.method == "GET", let answers, let count = try context.store.changeCount() else {
                return try routes.answer(Array(parts.dropFirst()))
            }
            let query = request.query.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
            let key = [account.name, request.path, query, context.today.iso, account.timeZone, account.dayStart.description, String(count)]
                .joined(separator: "\u{1}")
            if let kept = answers.answer(for: key) { return kept }
            let response = try routes.answer(Array(parts.dropFirst()))
            if response.status == 200 { answers.keep(response, for: key) }
            return response
        }
    }

    /// The user of the request's bearer token; 401 without one or for an unknown one.
    private func authenticate(_ request: HTTPRequest, _ contexts: OwnerContexts) throws -> User {
        guard let header = request.authorization, header.hasPrefix("Bearer ") else { throw APIError.unauthorized }
        let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        guard let user = try Tokens.user(of: token, contexts) else { throw APIError.unauthorized }
        return user
    }
}
