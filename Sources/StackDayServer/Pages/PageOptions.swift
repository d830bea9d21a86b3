import Foundation

/// How the pages keep sessions: how long one lasts, whether its cookie is `Secure` even when
/// the request did not say it came over TLS (`X-Forwarded-Proto: https`), and the names locked
/// after failed sign-ins by password.
public struct PageOptions: Sendable {
    public var sessionDays: Int
    public var cookieSecure: Bool
    public let signInLock = SignInLock()
    /// The key of the device cookies this process hands out (`PageRoutes.knownCookie`): random
    /// per process, so a restart forgets which browsers signed in before.
    public let deviceCookieKey: [UInt8] = {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }()
    /// Webhooks made on the settings page may go to loopback and private addresses (set from
    /// `APIOptions.allowsLocalWebhooks`).
    public var allowsLocalWebhooks = false
    /// Whether push subscriptions may name loopback and private addresses (`APIOptions.allowsLocalPush`).
    public var allowsLocalPush = false

    /// How long a session lasts, in seconds of elapsed time (a cookie's `Max-Age`; not calendar days).
    public var sessionLifetime: TimeInterval { TimeInterval(sessionDays) * 86_400 }

    public init(sessionDays: Int = 30, cookieSecure: Bool = false) {
        self.sessionDays = sessionDays
        self.cookieSecure = cookieSecure
    }
}
