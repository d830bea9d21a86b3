import Foundation

/// UUIDs as canonical upper-case text, converted without Foundation's formatter (imports and
/// stores convert millions of them).
public enum UUIDText {
    private static let digits = Array("0123456789ABCDEF".utf8)

    /// `E621E1F8-C36C-495A-93FC-0C247A3E6E5F`.
    public static func format(_ id: UUID) -> String {
        String(unsafeUninitializedCapacity: 36) { out in
            write(id, into: out)
            return 36
        }
    }

    /// Writes the 36 bytes of the text form into `out` (which must hold at least 36).
    public static func write(_ id: UUID, into out: UnsafeMutableBufferPointer<UInt8>) {
        withUnsafeBytes(of: id.uuid) { raw in
            var position = 0
            for index in 0..<16 {
                if index == 4 || index == 6 || index == 8 || index == 10 {
                    out[position] = UInt8(ascii: "-")
                    position += 1
                }
                out[position] = digits[Int(raw[index] >> 4)]
                out[position + 1] = digits[Int(raw[index] & 0x0F)]
                position += 2
            }
        }
    }

    /// Parses the 36-character form, either case; nil otherwise.
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard isHyphenated(bytes) else { return nil }
        var value: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &value) { out -> Bool in
            var position = 0
            for index in 0..<16 {
                if isHyphen(at: position) { position += 1 }
                guard let high = nibble(bytes[position]), let low = nibble(bytes[position + 1]) else { return false }
                out[index] = high << 4 | low
                position += 2
            }
            return true
        }
        return parsed ? UUID(uuid: value) : nil
    }

    /// Whether `text` is a UUID in exactly the form `format` writes: 36 characters, upper-case hex
    /// digits and hyphens in their places.
    public static func isCanonical(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { bytes in
            guard isHyphenated(bytes) else { return false }
            for position in 0..<36 where !isHyphen(at: position) {
                let byte = bytes[position]
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte) else { return false }
            }
            return true
        }
    }

    public static func parse(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { parse($0) }
    }

    /// Whether the text form has a hyphen at `position` (after 8, 4, 4 and 4 hex digits).
    private static func isHyphen(at position: Int) -> Bool {
        position == 8 || position == 13 || position == 18 || position == 23
    }

    /// 36 bytes with the four hyphens in their places: the shape both parsing and the canonical
    /// check start from.
    private static func isHyphenated(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 36 && (0..<36).allSatisfy { !isHyphen(at: $0) || bytes[$0] == UInt8(ascii: "-") }
    }

    private static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }
}
