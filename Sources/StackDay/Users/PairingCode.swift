import Foundation

/// A one-time code that connects a device to a user: 8 characters of Crockford's base32 (no I,
/// L, O or U), shown as `ABCD-EFGH`, good for `lifetime` and for one use. Only its SHA-256 is
/// stored, beside the user and the moment it stops working.
public struct PairingCode: Hashable, Sendable {
    /// The code's SHA-256 (of its 8 characters, without the dash), lowercase hex.
    public let codeSHA256: String
    public let user: String
    public let expiresAt: Date

    public init(codeSHA256: String, user: String, expiresAt: Date) {
        self.codeSHA256 = codeSHA256
        self.user = user
        self.expiresAt = expiresAt
    }

    /// How long a code works: ten minutes.
    public static let lifetime: TimeInterval = 600

    /// Crockford's base32 alphabet (https://www.crockford.com/base32.html): 32 symbols, none of
    /// them easy to mistake for another when read aloud or typed from a screen.
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// 8 symbols of system randomness (40 bits), as shown: `ABCD-EFGH`.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        let symbols = (0..<8).map { _ in alphabet[Int(generator.next(upperBound: UInt8(32)))] }
        return String(decoding: symbols[0..<4] + [0x2D] + symbols[4..<8], as: UTF8.self)
    }

    /// The code as typed, read the way Crockford's base32 reads it: any case, dashes and spaces
    /// ignored, `O` as `0`, `I` and `L` as `1`. Nil when it is not 8 symbols of the alphabet.
    public static func normalized(_ typed: String) -> String? {
        var symbols: [UInt8] = []
        for byte in typed.uppercased().utf8 where byte != 0x2D && byte != 0x20 {
            switch byte {
            case UInt8(ascii: "O"): symbols.append(UInt8(ascii: "0"))
            case UInt8(ascii: "I"), UInt8(ascii: "L"): symbols.append(UInt8(ascii: "1"))
            default:
                guard alphabet.contains(byte) else { return nil }
                symbols.append(byte)
            }
            if symbols.count > 8 { return nil }
        }
        return symbols.count == 8 ? String(decoding: symbols, as: UTF8.self) : nil
    }

    /// What the store keeps for a code as typed (nil when it cannot be one).
    public static func sha256(of typed: String) -> String? {
        normalized(typed).map { SHA256(of: $0.utf8).description }
    }
}
