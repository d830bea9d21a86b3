/// A bearer token: `sd_` and 64 hex digits of system randomness (256 bits). Only its SHA-256 is stored.
public struct UserToken: Sendable {
    public let text: String

    /// A new random token.
    public init() {
        var generator = SystemRandomNumberGenerator()
        let digits = Array("0123456789abcdef".utf8)
        var bytes = Array("sd_".utf8)
        for _ in 0..<4 {
            let word = generator.next() as UInt64
            for shift in stride(from: 60, through: 0, by: -4) { bytes.append(digits[Int((word >> UInt64(shift)) & 15)]) }
        }
        text = String(decoding: bytes, as: UTF8.self)
    }

    /// What the store keeps for a token given as `text`.
    public static func sha256(of text: String) -> String {
        SHA256(of: text.utf8).description
    }

    public var sha256: String { Self.sha256(of: text) }
}
