import Foundation

/// A device whose token was revoked: kept by its token's hash so that the device, when it comes
/// back, is told what happened to it (and how to connect again) rather than only that its token
/// is unknown.
public struct RevokedDevice: Sendable, Equatable {
    public let name: String
    public let user: String
    public let revokedAt: Date

    public init(name: String, user: String, revokedAt: Date) {
        self.name = name
        self.user = user
        self.revokedAt = revokedAt
    }
}
