import Foundation
import StackDay

/// Deterministic UUIDs from text (two FNV-1a 64-bit hashes), so re-imports match by id.
enum StableID {
    static let separator = "\u{1F}"

    static func make(_ parts: String...) -> UUID {
        var prefix = Prefix()
        prefix.combine(parts.joined(separator: separator).utf8)
        return prefix.uuid
    }

    /// The hash state after `parts` and a separator, so that ids for many days of one habit hash
    /// only the day: `Prefix("loop-completion", name).make(day)` equals
    /// `make("loop-completion", name, day.iso)`.
    struct Prefix {
        private var first: UInt64 = 0xcbf2_9ce4_8422_2325
        private var second: UInt64 = 0x8422_2325_cbf2_9ce4

        fileprivate init() {}

        init(_ parts: String...) {
            combine((parts.joined(separator: StableID.separator) + StableID.separator).utf8)
        }

        fileprivate mutating func combine<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes {
                first = (first ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                second = (second ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 &+ 0x9E37_79B9
            }
        }

        /// The id of the prefix followed by `day` in ISO form.
        func make(_ day: LocalDay) -> UUID {
            var state = self
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { buffer in
                day.writeISO(into: buffer)
                state.combine(UnsafeBufferPointer(buffer))
            }
            return state.uuid
        }

        fileprivate var uuid: UUID {
            var bytes = [UInt8](repeating: 0, count: 16)
            for index in 0..<8 {
                bytes[index] = UInt8(truncatingIfNeeded: first >> (8 * index))
                bytes[8 + index] = UInt8(truncatingIfNeeded: second >> (8 * index))
            }
            bytes[6] = (bytes[6] & 0x0F) | 0x80 // version 8: custom
            bytes[8] = (bytes[8] & 0x3F) | 0x80 // RFC 4122 variant
            return UUID(uuid: (bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                               bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]))
        }
    }
}
