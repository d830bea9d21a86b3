/// When and where a change was made: a hybrid logical time (milliseconds since 1970 shifted left
/// 16 bits, plus a counter, never behind any time its replica has seen) and the device.
///
/// Stamps order totally, the time first and the device's id breaking ties, so every replica that
/// compares two versions of a habit picks the same one whatever its own clock says.
public struct SyncStamp: Sendable, Hashable, Comparable {
    public let hlc: Int64
    public let device: String

    public init(hlc: Int64, device: String) {
        self.hlc = hlc
        self.device = device
    }

    public static func < (lhs: SyncStamp, rhs: SyncStamp) -> Bool {
        (lhs.hlc, lhs.device) < (rhs.hlc, rhs.device)
    }
}
