import Foundation
import StackDay

/// The `Authorization` header of RFC 8292 (VAPID): a JWT signed with the server's P-256 key
/// (ES256) whose audience is the push service's origin, valid for 12 hours, naming whom to
/// contact, with the key itself in `k`.
enum VAPIDAuthorization {
    /// How long a token is valid (RFC 8292 allows at most 24 hours).
    static let lifetime: TimeInterval = 12 * 3600

    /// `vapid t=JWT, k=KEY` for a message to `endpoint` at `now`; `contact` is a `mailto:` or
    /// `https:` URL (`--push-contact`).
    static func header(endpoint: String, contact: String, key: PushServerKey, now: Date) throws(PushCryptoError) -> String {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(), let host = url.host else {
            throw .failed("the subscription's endpoint is not a URL")
        }
        let port = url.port.map { ":\($0)" } ?? ""
        let claims = JSONValue.object([
            "aud": .string("\(scheme)://\(host)\(port)"), "exp": .number((now.timeIntervalSince1970 + lifetime).rounded(.down)), "sub": .string(contact),
        ])
        let header = Base64URL.encode(Array(#"{"typ":"JWT","alg":"ES256"}"#.utf8))
        let signed = header + "." + Base64URL.encode(Array(claims.jsonText.utf8))
        let signature = try PushCrypto.sign(Array(signed.utf8), privateKey: key.privateKey, publicKey: key.publicKey)
        return "vapid t=\(signed).\(Base64URL.encode(signature)), k=\(key.publicKeyText)"
    }
}
