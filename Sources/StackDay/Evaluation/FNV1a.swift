/// FNV-1a, 64 bits: a fast, non-cryptographic hash for cache keys and checksums, where a
/// collision costs a cache miss or a rebuilt row, never a wrong figure in a trusted place.
/// Script identity uses `SHA256`.
public struct FNV1a: Sendable {
    public private(set) var value: UInt64

    public init(seed: UInt64 = 0xcbf2_9ce4_8422_2325) {
        value = seed
    }

    public mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        var hash = value
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        value = hash
    }

    /// 32 hex digits from two passes with different seeds: a key for text of any length.
    public static func key(_ text: String) -> String {
        var first = FNV1a(), second = FNV1a(seed: 0x8422_2325_cbf2_9ce4)
        first.combine(text.utf8)
        second.combine(text.utf8)
        return hex(first.value) + hex(second.value)
    }

    static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
