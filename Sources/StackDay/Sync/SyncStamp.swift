import Foundation

/// When and where a change was made: a hybrid logical time (milliseconds since 1970 shifted left
/// 16 bits, plus a counter, never behind any time its replica has seen) and the device.
///
/// Stamps order totally, the time first and the device's id breaking ties, so every replica that
/// compares two versions of a habit picks the same one whatever its own clock says.
///
/// A store's schema makes the stamps of its own writes; a store given a `Clock` makes them from it
/// (`SQLiteHabitStore(path:owner:clock:)`), else from the machine's.
public struct SyncStamp: Sendable, Hashable, Comparable {
    public let hlc: Int64
    public let device: String

    public init(hlc: Int64, device: String) {
        self.hlc = hlc
        self.device = device
    }

    /// The hybrid time of `instant` with a zero counter.
    public static func time(at instant: Date) -> Int64 {
        Int64(instant.timeIntervalSince1970 * 1000) << 16
    }

    /// The instant a hybrid time stands for (its counter dropped): `time(at:)` undone, to the millisecond.
    public static func date(of hlc: Int64) -> Date {
        Date(timeIntervalSince1970: Double(hlc >> 16) / 1000)
    }

    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        (lhs.hlc, lhs.device) < (rhs.hlc, rhs.device)
    }
}
