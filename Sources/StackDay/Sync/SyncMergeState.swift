/// What a replica holds, as `SyncMerger` asks about it while it decides one change: a store's
/// repository reads it from its tables, a test from a few values.
public protocol SyncMergeState {
    /// The log's entry for an entity; nil when the replica never held it.
    func entry(_ kind: SyncKind, _ key: String) throws -> SyncLogEntry?
    /// The entity as held; nil when none is.
    func entity(_ kind: SyncKind, _ key: String) throws -> SyncEntity?
    /// The stamps of a habit's fields changed since it was made.
    func fieldStamps(habit: String) throws -> [SyncHabitField: SyncStamp]
    /// Whether a live habit or group with this key is held (one this batch made counts).
    func holds(_ kind: SyncKind, _ key: String) throws -> Bool
    /// The last number of a habit's (`.revision`) or group's (`.groupRevision`) revisions; 0 when
    /// it has none.
    func topRevision(_ kind: SyncKind, of parent: String) throws -> Int64
}
