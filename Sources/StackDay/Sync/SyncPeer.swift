/// Where a device stands with one server (`SyncServerIdentity.id`, and the user it syncs as): its
/// own log pushed through `pushedThrough`, the server's pulled through `position`, and the
/// server's epoch when it last synced (nil before its first sync with it), and the device id the
/// store had before it took a new one, until a sync with the server has told it so. Stored in
/// the transaction that moves it.
public struct SyncPeer: Sendable, Equatable {
    public var pushedThrough: Int64
    public var position: Int64
    public var epoch: String?
    /// The id this store synced under before `SyncRepository.moveDevice`, not yet announced to
    /// this server (`SyncRequest.previous`).
    public var previous: String?
    /// The server's mark of `position` (`SyncResponse.mark`).
    public var mark: String?

    public init(pushedThrough: Int64 = 0, position: Int64 = 0, epoch: String? = nil, previous: String? = nil, mark: String? = nil) {
        self.mark = mark
        self.pushedThrough = pushedThrough
        self.position = position
        self.epoch = epoch
        self.previous = previous
    }
}
