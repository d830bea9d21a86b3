import Foundation

/// Ids that sort by the time they were made: UUID version 7 (RFC 9562 §5.7), the Unix time in
/// milliseconds in the first 48 bits, then the version, 12 random bits, the variant and 62 random
/// bits. A store's indexes keyed by id take new rows at their right edge instead of at random
/// places, so a large insert (a first sync, an import) rewrites far fewer index pages; ids made
/// before stay as they are.
public enum TimeOrderedID {
    /// A version 7 UUID for `instant` (clamped to the Unix epoch), random in the rest.
    public static func make(at instant: Date) -> UUID {
        var random = SystemRandomNumberGenerator()
        return make(at: instant, using: &random)
    }

    /// The same from `random`, for a test that wants the bits it chose.
    public static func make(at instant: Date, using random: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(max(0, (instant.timeIntervalSince1970 * 1000).rounded(.down)))
        let (high, low) = (random.next() as UInt64, random.next() as UInt64)
        var bytes = [UInt8](repeating: 0, count: 16)
        for index in 0..<6 { bytes[index] = UInt8(truncatingIfNeeded: milliseconds >> (8 * (5 - index))) }
        bytes[6] = 0x70 | UInt8(truncatingIfNeeded: high >> 8) & 0x0F
        bytes[7] = UInt8(truncatingIfNeeded: high)
        bytes[8] = 0x80 | UInt8(truncatingIfNeeded: low >> 56) & 0x3F
        for index in 9..<16 { bytes[index] = UInt8(truncatingIfNeeded: low >> (8 * (15 - index))) }
        return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                           bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
    }
}
