import Foundation
import Synchronization

/// Ids that sort by the time they were made: UUID version 7 (RFC 9562 §5.7), the Unix time in
/// milliseconds in the first 48 bits, then the version, 12 random bits, the variant and 62 random
/// bits. A store's indexes keyed by id take new rows at their right edge instead of at random
/// places, so a large insert (a first sync, an import) rewrites far fewer index pages; ids made
/// before stay as they are.
public enum TimeOrderedID {
    /// The last id's milliseconds and 12-bit counter, for `next()`.
    private static let last = Mutex<(milliseconds: UInt64, counter: UInt64)>((0, 0))

    /// A version 7 UUID for the moment it is made, later than every id `next()` made before in this
    /// process: within one millisecond the 12 bits after the version count up from a random start
    /// below 2,048, and past 4,095 the time moves on a millisecond (RFC 9562 §6.2, method 1). What
    /// a store writes in one burst (an import, a first sync) then goes in the order it is made, at
    /// its indexes' right edge, whatever days the rows are of.
    public static func next() -> UUID {
        var random = SystemRandomNumberGenerator()
        let now = UInt64(max(0, (Date().timeIntervalSince1970 * 1000).rounded(.down)))
        let (milliseconds, counter) = last.withLock { last -> (UInt64, UInt64) in
            if now > last.milliseconds {
                last = (now, (random.next() as UInt64) & 0x7FF)
            } else if last.counter < 0xFFF {
                last.counter += 1
            } else {
                last = (last.milliseconds + 1, (random.next() as UInt64) & 0x7FF)
            }
            return last
        }
        return make(milliseconds: milliseconds, counter: counter, low: random.next())
    }

    /// A version 7 UUID for `instant` (clamped to the Unix epoch), random in the rest.
    public static func make(at instant: Date) -> UUID {
        var random = SystemRandomNumberGenerator()
        return make(at: instant, using: &random)
    }

    /// The same from `random`, for a test that wants the bits it chose.
    public static func make(at instant: Date, using random: inout some RandomNumberGenerator) -> UUID {
        let milliseconds = UInt64(max(0, (instant.timeIntervalSince1970 * 1000).rounded(.down)))
        return make(milliseconds: milliseconds, counter: (random.next() as UInt64) & 0xFFF, low: random.next())
    }

    /// The id of `milliseconds`, with `counter` in the 12 bits after the version and `low` in the
    /// 62 after the variant.
    private static func make(milliseconds: UInt64, counter high: UInt64, low: UInt64) -> UUID {
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
