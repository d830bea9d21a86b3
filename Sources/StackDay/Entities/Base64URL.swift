import Foundation

/// Base64 with the URL and file name safe alphabet (RFC 4648 §5), written without padding, as
/// Web Push writes keys, salts and JWTs.
public enum Base64URL {
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text` (trailing padding optional); nil for any other character.
    public static func decode(_ text: String) -> [UInt8]? {
        let body = text.utf8.reversed().drop { $0 == UInt8(ascii: "=") }
        guard !body.isEmpty, body.allSatisfy({ byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2D || byte == 0x5F
        }) else { return nil }
        var base64 = String(decoding: body.reversed(), as: UTF8.self).replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
