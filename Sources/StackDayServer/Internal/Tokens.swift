import Foundation
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

    /// The user of `token` (the user's own, or a paired device's), through the store's own
    /// (unscoped) connection; a device's token notes that the device was seen at `now`.
    static func user(of token: String, _ contexts: OwnerContexts, at now: Date) throws -> User? {
        try caller(of: token, contexts, at: now)?.user
    }

    /// The user of `token` and, for a paired device's token, the device's id.
    static func caller(of token: String, _ contexts: OwnerContexts, at now: Date) throws -> (user: User, device: UUID?)? {
        guard isWellFormed(token) else { return nil }
        let store = try contexts.baseStore()
        if let user = try store.readStatement({ try $0.users.user(tokenSHA256: UserToken.sha256(of: token)) }) { return (user, nil) }
        return try ManageDevices.user(deviceToken: token, in: store, at: now).map { ($0.user, $0.device.id) }
    }
}
