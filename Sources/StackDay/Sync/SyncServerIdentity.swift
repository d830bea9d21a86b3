/// Who a device syncs with: the server's store, not its address. Any number of addresses,
/// proxies and servers over one database are one server to a device, which keys what it knows of
/// a server (`SyncPeer`) by `id` and the user it syncs as.
///
/// The `epoch` is new whenever the server's store may have lost what devices hold: its store
/// restored from a backup, imported, or copied (the store's own identity, a file's or a database's,
/// is not the one the epoch was made under), or a device asking from past the end of its log. A
/// device that last synced under another epoch pushes everything it holds, not only what it made,
/// so that what the server lost comes back from whoever holds it.
public struct SyncServerIdentity: Sendable, Hashable {
    public let id: String
    public let epoch: String

    public init(id: String, epoch: String) {
        self.id = id
        self.epoch = epoch
    }
}
