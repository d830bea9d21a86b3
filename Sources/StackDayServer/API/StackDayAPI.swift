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
    /// Which user each credential seen here belongs to (`clientKey`).
    private let directory = ClientDirectory()
    /// What `--metrics-listen` serves.
    public let metrics = Metrics()
    /// Every request's way through, in order (`init` composes it).
    private let pipeline: Pipeline

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
        self.clock = clock
        // Without kept answers, no cached evaluations either: `--no-cache` computes every read.
        let pool = ContextPool { OwnerContexts(makeStore: makeStore, makePolicies: makePolicies, usesEvaluationCache: cachesAnswers,
                                                   limits: options.limits) }
        self.pool = pool
        let (metrics, directory) = (metrics, directory)
        let failures = Throttle(limit: options.failuresPerMinute)
        // The API document, made on first request from the route table and the policies' catalog.
        let openAPI = Once<JSONValue>()
        // A write's key, kept per user for the API and the web app's forms alike.
        let idempotency = Idempotency(keys: IdempotencyKeys(), clock: clock)
        // `/v1` for an authenticated user: who, how often, a write's key, a read's version, then the route.
        let api = Pipeline([
            Authentication(pool: pool, clock: clock, directory: directory, stateBytes: stateBytes),
            RateLimit(throttle: options.rateLimit.map { Throttle(limit: $0) }),
            idempotency,
            ConditionalAnswer(answers: cachesAnswers ? AnswerCache() : nil, metrics: metrics),
        ]) { exchange in
            guard let context = exchange.context, let account = exchange.account else { throw APIError.unauthorized }
            if case .found(let endpoint, let captures) = exchange.reached, let action = endpoint.action,
               !DeviceRights.allows(action, by: exchange.device, target: captures.first) {
                throw APIError(code: .forbiddenForDevice, message: "a paired device may not \(action.rawValue): use the account's own token or sign in on the web")
            }
            var routes = HabitRoutes(app: Application(context: context), user: account, request: exchange.request, users: ManageUsers(context: context))
            routes.tls = options.strictTransportSecurity
            routes.allowsLocalWebhooks = options.allowsLocalWebhooks
            routes.allowsLocalPush = options.allowsLocalPush
            routes.device = exchange.device
            return try routes.answer(exchange.reached)
        }
        var pages = pages
        pages.allowsLocalWebhooks = options.allowsLocalWebhooks
        pages.allowsLocalPush = options.allowsLocalPush
        let dispatch = Dispatch(pool: pool, clock: clock, pages: pages, directory: directory, failures: failures, stateBytes: stateBytes,
                                idempotency: idempotency, api: api)
        let stages: [(any PipelineStage)?] = [
            TrustedProxy(proxies: options.trustedProxies),
            RequestIdentity(),
            AccessLog(format: options.logFormat, metrics: metrics, log: log),
            CrossOrigin(allowedOrigins: options.allowedOrigins, strictTransportSecurity: options.strictTransportSecurity),
            ErrorMapping(metrics: metrics),
            requestBudget.map { PolicyBudgetStage(budget: $0) },
            OpenEndpoints { try openAPI.value { OpenAPIDocument.document(policies: try makePolicies().catalog()) } },
            BodyLimit(),
            FailedAuthentication(throttle: failures),
        ]
        pipeline = Pipeline(stages.compactMap { $0 }, endpoint: dispatch.answer)
    }

    /// Answers one request; never throws (every failure is a status and `{"error": {"code", "message"}}`).
    /// Every answer carries `X-Request-Id`; one access line is logged per request.
    public func handle(_ incoming: HTTPRequest) -> HTTPResponse {
        do {
            return try pipeline.answer(Exchange(incoming))
        } catch {
            // `ErrorMapping` answers every error; this is only for one thrown before it.
            return ErrorMapping.response(for: error)
        }
    }

    /// Whether a failure is the store's (a lost connection, a file gone read-only): the context
    /// that met it is not used again.
    static func isStoreFailure(_ error: any Error) -> Bool {
        !(error is APIError) && ErrorCode.of(error) == .storeFailed
    }

    /// The HTTP status of a code.
    static func status(of code: ErrorCode) -> Int {
        switch code {
        case .habitNotFound, .groupNotFound, .userNotFound, .revisionNotFound, .completionNotFound, .policyNotFound, .notFound, .deviceNotFound, .webhookNotFound, .pushSubscriptionNotFound: 404
        case .duplicateName, .userExists, .idempotencyKeyInUse, .deviceCopied: 409
        case .invalidParameter, .invalidInput, .readOutOfBounds, .badRequest, .usage: 400
        case .policyFailed, .policyBudgetExceeded, .idempotencyKeyReused: 422
        case .unauthorized, .pairingFailed: 401
        case .forbidden, .forbiddenForDevice: 403
        case .methodNotAllowed: 405
        case .bodyTooLarge, .policyTooLarge: 413
        case .serverBusy: 503
        case .serverUnreachable, .tlsFailed: 502
        case .tooManyRequests, .quotaExceeded: 429
        case .storeFailed: 500
        }
    }

    /// The metrics' exposition text, with the open sessions counted in the store.
    public func metricsText(connections: Int? = nil) -> String {
        let sessions = try? pool.with { contexts in try contexts.baseStore().read { try $0.users.sessionCount(at: clock.now) } }
        return metrics.text(sessions: sessions, connections: connections)
    }

    /// The name of the web app's session cookie (for `HTTPServerOptions.sessionCookie`).
    public static let sessionCookie = PageRoutes.cookie

    /// The fair queue's key for a credential (`HTTPServerOptions.clientKey`): the user it
    /// authenticated as here, or 0 when it has not.
    public func clientKey(of credential: String) -> UInt64 { directory.key(of: credential) }
}
