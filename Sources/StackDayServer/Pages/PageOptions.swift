/// How the pages keep sessions: how long one lasts, and whether its cookie is `Secure` even when
/// the request did not say it came over TLS (`X-Forwarded-Proto: https`).
public struct PageOptions: Sendable {
    public var sessionDays: Int
    public var cookieSecure: Bool

    public init(sessionDays: Int = 30, cookieSecure: Bool = false) {
        self.sessionDays = sessionDays
        self.cookieSecure = cookieSecure
    }
}
