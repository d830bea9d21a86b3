import StackDay

/// How the API treats its clients beyond authentication: which browser origins may call it
/// (CORS; none unless named), how many requests a minute one user may make, how many failed
/// authentications one address may make before it waits, and how the access log is written.
public struct APIOptions: Sendable {
    /// The access log's format: one line of fields, or one JSON object a line.
    public enum LogFormat: String, Sendable {
        case text, json
    }

    public var allowedOrigins: [String]
    /// Requests a minute one user may make, whichever token carries them (nil: no limit).
    public var rateLimit: Int?
    /// Failed authentications one address may make in a minute before every request from it waits.
    public var failuresPerMinute: Int
    public var logFormat: LogFormat
    /// Addresses of proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` are believed.
    public var trustedProxies: [String] = []
    /// Served over TLS: every answer says `Strict-Transport-Security`, so browsers keep to HTTPS.
    public var strictTransportSecurity = false
    /// Webhooks may be created for, and sent to, loopback and private addresses (a home network's
    /// receiver, tests); off, such an address is refused on creation and on every delivery.
    public var allowsLocalWebhooks = false
    /// Push subscriptions may name a push service on loopback or a private address (tests, a
    /// self-hosted push service); off, such an endpoint is refused on subscribing and on sending.
    public var allowsLocalPush = false
    /// Whom push services may contact about this server's messages: a `mailto:` or `https:` URL,
    /// the VAPID token's `sub` (`--push-contact`; default the server's own address).
    public var pushContact: String?
    /// What each user may hold unless the user has limits of their own (`serve --limit`).
    public var limits = UserLimits.standard

    public init(allowedOrigins: [String] = [], rateLimit: Int? = nil, failuresPerMinute: Int = 10, logFormat: LogFormat = .text) {
        self.allowedOrigins = allowedOrigins
        self.rateLimit = rateLimit
        self.failuresPerMinute = failuresPerMinute
        self.logFormat = logFormat
    }
}
