import Foundation

/// A device connected to a user by a pairing code: its own bearer token (only the SHA-256 is
/// kept), the name it gave, and when it was connected and last seen. Revoking it ends its token
/// and nothing else.
public struct UserDevice: Hashable, Sendable {
    public let id: UUID
    public let user: String
    public let name: String
    public let tokenSHA256: String
    public let createdAt: Date
    /// The last request with its token, to the nearest `ManageDevices.seenResolution`.
    public var lastSeenAt: Date?

    public init(id: UUID, user: String, name: String, tokenSHA256: String, createdAt: Date, lastSeenAt: Date? = nil) {
        self.id = id
        self.user = user
        self.name = name
        self.tokenSHA256 = tokenSHA256
        self.createdAt = createdAt
        self.lastSeenAt = lastSeenAt
    }
}
