import Foundation

/// Base64 with the URL and file name safe alphabet and no padding (RFC 4648 §5), as Web Push
/// writes keys, salts and JWTs.
enum Base64URL {
    static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of `text` (padding optional); nil for any character outside the alphabet.
    static func decode(_ text: String) -> [UInt8]? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        guard !base64.contains("="), base64.utf8.allSatisfy({ $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") || ($0 < 128 && isalnum(Int32($0)) != 0) }) else {
            let trimmed = text.hasSuffix("=") ? String(text.prefix { $0 != "=" }) : nil
            return trimmed.flatMap { $0.contains("=") ? nil : decode($0) }
        }
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        return Data(base64Encoded: base64).map { [UInt8]($0) }
    }
}
