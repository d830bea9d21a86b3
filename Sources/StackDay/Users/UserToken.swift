/// A bearer token: `sd_` and 64 hex digits of system randomness (256 bits). Only its SHA-256 is stored.
public struct UserToken: Sendable {
    public let text: String

    /// A new random token.
    public init() {
        text = ManageSessions.randomHex(prefix: "sd_")
    }

    /// What the store keeps for a token given as `text`.
    public static func sha256(of text: String) -> String {
        SHA256(of: text.utf8).description
    }

    public var sha256: String { Self.sha256(of: text) }
}
