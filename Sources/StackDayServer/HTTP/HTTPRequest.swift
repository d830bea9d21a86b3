/// One HTTP request as the server hands it to a handler.
public struct HTTPRequest: Sendable {
    public let method: String
    /// The path without the query, as sent: still percent-encoded (`Router.segments(of:)` splits
    /// and decodes it).
    public let path: String
    public let authorization: String?
    public let cookie: String?
    public let contentType: String?
    /// The headers the pages read: `Origin`, `Host`, `Accept-Language`, `If-None-Match`, `X-Forwarded-Proto`.
    public var origin: String?
    public var host: String?
    public var acceptLanguage: String?
    public var ifNoneMatch: String?
    public var forwardedProto: String?
    /// The client's `X-Request-Id`, the preflight's `Access-Control-Request-Method`, and the
    /// client's IPv4 address (empty when unknown).
    public var requestID: String?
    public var preflightMethod: String?
    /// `X-Forwarded-For` as sent (the server believes it only from `--trusted-proxy`).
    public var forwardedFor: String?
    /// `Idempotency-Key`: a write retried with the same key is answered as the first time.
    public var idempotencyKey: String?
    public var address: String = ""
    /// Query arguments, decoded, in order.
    public let query: [(key: String, value: String)]
    public let body: [UInt8]
    /// The body was over the server's limit and was dropped.
    public let bodyTooLarge: Bool

    public init(method: String, path: String, authorization: String? = nil, cookie: String? = nil, contentType: String? = nil,
                query: [(key: String, value: String)] = [], body: [UInt8] = [], bodyTooLarge: Bool = false) {
        self.method = method
        self.path = path
        self.authorization = authorization
        self.cookie = cookie
        self.contentType = contentType
        self.query = query
        self.body = body
        self.bodyTooLarge = bodyTooLarge
    }

    /// The last value of query argument `key`.
    public func argument(_ key: String) -> String? {
        query.last { $0.key == key }?.value
    }
}
