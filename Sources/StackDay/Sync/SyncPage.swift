/// Changes read from a replica's log after a position, in log order, with the parents a receiver
/// may lack (a record's habit, a revision's scripts) put before what needs them.
public struct SyncPage: Sendable {
    public let changes: [SyncChange]
    /// How many of `changes` are the log's own entries (the rest are parents sent along).
    public let entries: Int
    /// The log position read up to: the next page starts after it.
    public let position: Int64
    /// Whether the log holds more after `position`.
    public let more: Bool

    public init(changes: [SyncChange], entries: Int, position: Int64, more: Bool) {
        self.changes = changes
        self.entries = entries
        self.position = position
        self.more = more
    }
}
