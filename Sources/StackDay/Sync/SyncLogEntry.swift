/// An entity's row in a replica's change log: where it stands in the log, the stamp of the write
/// that last changed it, and whether that write deleted it (a tombstone).
public struct SyncLogEntry: Sendable, Equatable {
    public let kind: SyncKind
    public let key: String
    public let seq: Int64
    public let stamp: SyncStamp
    public let deleted: Bool

    public init(kind: SyncKind, key: String, seq: Int64, stamp: SyncStamp, deleted: Bool) {
        self.kind = kind
        self.key = key
        self.seq = seq
        self.stamp = stamp
        self.deleted = deleted
    }
}
