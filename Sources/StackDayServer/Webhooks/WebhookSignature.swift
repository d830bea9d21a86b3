import CSodium
import StackDay

/// `X-StackDay-Signature: sha256=<hex>`: HMAC-SHA256 (RFC 2104 over FIPS 180-4, as libsodium
/// computes it) of a delivery's body with its webhook's secret (the secret's UTF-8 bytes as the
/// key). A receiver recomputes it over the bytes it got and compares in constant time.
enum WebhookSignature {
    static func header(body: [UInt8], secret: String) -> String {
        "sha256=" + HexText.lowercase(hmacSHA256(body, key: Array(secret.utf8)))
    }

    /// The MAC; empty when libsodium is missing (`stackday serve` checks for it before it
    /// listens, so a running server has it).
    static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        guard sd_hmacsha256(&out, message, UInt64(message.count), key, key.count) == 0 else { return [] }
        return out
    }
}
