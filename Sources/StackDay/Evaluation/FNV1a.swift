/// FNV-1a, 64 bits: a fast, non-cryptographic hash for cache keys and checksums, where a
/// collision costs a cache miss or a rebuilt row, never a wrong figure in a trusted place.
/// Script identity uses `SHA256`.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64

    public init(seed: UInt64 = 0xcbf2_9ce4_8422_2325) {
        value = seed
    }

    /// The 64-bit FNV prime.
    static var prime: UInt64 { 0x100_0000_01b3 }

    public mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* Self.prime }
        value = hash
    }

    /// Combines the bytes of `number`'s decimal text, as `String(number)` writes it, without
    /// making the text.
    public mutating func combine(decimal number: Int64) {
        if number < 0 { combine(CollectionOfOne(UInt8(ascii: "-"))) }
        var magnitude = number.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var start = digits.count
            repeat {
                start -= 1
                digits[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            combine(UnsafeBufferPointer(rebasing: digits[start...]))
        }
    }

    /// 32 hex digits from two passes with different seeds: a key for text of any length.
    /// Both passes go over the text's bytes in one loop (a policy host's 28 KB prelude is keyed
    /// at every start).
    public static func key(_ text: String) -> String {
        var text = text
        let (first, second) = text.withUTF8 { bytes in
            var first = FNV1a().value, second = FNV1a(seed: 0x8422_2325_cbf2_9ce4).value
            for byte in bytes {
                first = (first ^ UInt64(byte)) &* prime
                second = (second ^ UInt64(byte)) &* prime
            }
            return (first, second)
        }
        return hex(first) + hex(second)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
