import CHTTP
import StackDay
import StackDayEngine

/// Finds the user a bearer token (from a header or a session cookie) belongs to.
enum Tokens {
    /// `sd_` and 64 lowercase hex digits: anything else is never looked up, nor put in a cookie.
    static func isWellFormed(_ text: String) -> Bool { ManageSessions.isRandomHex(text, prefix: "sd_") }

    /// The token of an `Authorization` value written exactly `Bearer TOKEN` (the scheme in any
    /// case, one space, a well-formed token, nothing after), as the server's fair queue reads it.
    static func bearer(_ header: String) -> String? {
        var token = [CChar](repeating: 0, count: 68)
        guard sd_http_bearer_token(header, &token) != 0 else { return nil }
        return String(decoding: token.prefix(67).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The user of `token`, through the store's own (unscoped) connection.
    static func user(of token: String, _ contexts: OwnerContexts) throws -> User? {
        guard isWellFormed(token) else { return nil }
        return try contexts.baseStore().read { try $0.users.user(tokenSHA256: UserToken.sha256(of: token)) }
    }
}
