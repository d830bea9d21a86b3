import Foundation

/// What makes a webhook a browser's Web Push subscription: the keys its messages are encrypted
/// to, the name the user knows it by, and who made it (a device's or a browser session's own,
/// which it alone sees and removes besides the account).
public struct PushSubscription: Sendable, Equatable {
    /// The browser's P-256 public key (65 bytes, uncompressed), base64url.
    public let p256dh: String
    /// The browser's 16-byte authentication secret, base64url.
    public let auth: String
    /// The name shown in lists ("Pixel 8", "Safari on iPhone").
    public let name: String
    /// Who subscribed: `device:<id>` for a paired device, `session:<id>` for a browser session,
    /// nil for the account's own token.
    public let holder: String?

    public init(p256dh: String, auth: String, name: String, holder: String?) {
        self.p256dh = p256dh
        self.auth = auth
        self.name = name
        self.holder = holder
    }

    /// The longest name kept.
    public static let nameLimit = 100

    /// The holder of a subscription a paired device made.
    public static func holder(device: UUID) -> String { "device:" + device.uuidString.lowercased() }

    /// The holder of a subscription a browser session made (by the session id's hash, never the id).
    public static func holder(session idSHA256: String) -> String { "session:" + idSHA256 }
}
