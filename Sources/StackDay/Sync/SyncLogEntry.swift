/// An entity's row in a replica's change log: where it stands in the log, the stamp of the write
/// that last changed it, and whether that write deleted it (a tombstone).
public struct SyncLogEntry: Sendable, Equatable {
    public let kind: SyncKind
    public let key: String
    public let seq: Int64
    public let stamp: SyncStamp
    public let deleted: Bool
    /// The number of this store's own write that made the entry (its count of writes it made
    /// itself, `SyncRepository.ownWrites`); nil for one taken from elsewhere or logged before
    /// writes were counted.
    public let own: Int64?

    public init(kind: SyncKind, key: String, seq: Int64, stamp: SyncStamp, deleted: Bool, own: Int64? = nil) {
        self.kind = kind
        self.key = key
        self.seq = seq
        self.stamp = stamp
        self.deleted = deleted
        self.own = own
    }
}
