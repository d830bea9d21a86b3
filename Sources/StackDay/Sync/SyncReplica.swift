/// Which side of a sync a store is when it merges a change in.
public enum SyncReplica: Sendable, Equatable {
    /// The server: its numbering of revisions is the one every device adopts.
    case server
    /// A device, `id`, that pushed its log through `pushedThrough`: a revision of its own after
    /// that is not yet on the server, so it is kept under a new number rather than replaced.
    case device(id: String, pushedThrough: Int64)
}
