import CSodium
import StackDay

/// `X-StackDay-Signature: sha256=<hex>`: HMAC-SHA256 (RFC 2104 over FIPS 180-4, as libsodium
/// computes it) of a delivery's body with its webhook's secret (the secret's UTF-8 bytes as the
/// key). A receiver recomputes it over the bytes it got and compares in constant time.
enum WebhookSignature {
    static func header(body: [UInt8], secret: String) -> String {
        "sha256=" + HexText.lowercase(hmacSHA256(body, key: Array(secret.utf8)))
    }

    static func hmacSHA256(_ message: [UInt8], key: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        var out = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_BYTES))
        crypto_auth_hmacsha256_init(&state, key, key.count)
        crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        crypto_auth_hmacsha256_final(&state, &out)
        return out
    }
}
