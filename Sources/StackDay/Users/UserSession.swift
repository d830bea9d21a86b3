import Foundation

/// A browser's sign-in: the SHA-256 of a random session id (the cookie holds the id, never the
/// user's token), the user, a CSRF token every state-changing form must send back, and when it
/// stops working.
public struct UserSession: Hashable, Sendable {
    public let idSHA256: String
    public let user: String
    public let csrfToken: String
    public let createdAt: Date
    public let expiresAt: Date
    /// The paired device a pairing code opened this session for (`/pair`): revoking the device
    /// ends it. Nil for a sign-in by token or password.
    public let deviceID: UUID?

    public init(idSHA256: String, user: String, csrfToken: String, createdAt: Date, expiresAt: Date, deviceID: UUID? = nil) {
        self.idSHA256 = idSHA256
        self.user = user
        self.csrfToken = csrfToken
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.deviceID = deviceID
    }
}
