import StackDay
import StackDayEngine

/// Finds the user a bearer token (from a header or a session cookie) belongs to.
enum Tokens {
    /// `sd_` and 64 lowercase hex digits: anything else is never looked up, nor put in a cookie.
    static func isWellFormed(_ text: String) -> Bool { ManageSessions.isRandomHex(text, prefix: "sd_") }

    /// The user of `token`, through the store's own (unscoped) connection.
    static func user(of token: String, _ contexts: OwnerContexts) throws -> User? {
        guard isWellFormed(token) else { return nil }
        return try contexts.baseStore().read { try $0.users.user(tokenSHA256: UserToken.sha256(of: token)) }
    }
}
