/// One owner's change log in a store, and the merge of changes from elsewhere into it.
///
/// The log is the store's own (its triggers stamp every write once the owner syncs), so writes
/// made by any program are synced. Every method runs inside the transaction that handed it out.
public protocol SyncRepository {
    /// Starts logging this owner's writes, if it has not, under a new device id `makeDevice()`
    /// (every entity already held is logged then, in dependency order); answers the device id.
    func start(makeDevice: () -> String) throws -> String
    /// Up to `limit` log entries after `position`: with `mine`, those `device` made (what a device
    /// pushes); without, those it did not (what a server answers it).
    func changes(after position: Int64, device: String, mine: Bool, limit: Int) throws -> SyncPage
    /// Merges a batch of changes in (`SyncRules`), as `replica`, parents first
    /// (`SyncRules.order`); answers what each did. `SyncError.invalidChange` names the change
    /// by its index in `changes`.
    func apply(_ changes: [SyncChange], as replica: SyncReplica) throws -> [SyncOutcome]
    /// Gives every live habit a name no other holds: of two with one name, the one created later
    /// (then the greater id) is renamed `NAME (2)`, `NAME (3)`, … (`SyncMerger.settledNames`);
    /// answers the renames.
    func settleNames() throws -> [SyncDecided.Renamed]
    /// A server's record of a device's history of pushes; nil for a device never seen.
    func history(of device: String) throws -> SyncHistory?
    func keepHistory(_ history: SyncHistory, of device: String) throws
    /// Retires `device` (a copy of a store moved from it to a new id): its id is refused from now
    /// on, and every entry it made is logged again after every position handed out, so every
    /// device pulls what it pushed (a copy syncing under the same id never got the other's).
    func retire(_ device: String) throws
    /// Gives this store's log a new device id: its own entries become the new id's, to be pushed
    /// again (`stackday sync --new-device`). Answers the id it had.
    func moveDevice(to device: String) throws -> String
    /// Keeps what a sync decided beyond copying, in place of the last one kept.
    func keepDecided(_ decided: SyncDecided) throws
    /// The last `keepDecided`; nil when none was kept.
    func lastDecided() throws -> SyncDecided?
    /// How many of `device`'s entries the log holds after `position` (what a push has to send).
    func pending(after position: Int64, device: String) throws -> Int
    /// The log's latest position.
    func position() throws -> Int64
    func peer(_ server: String) throws -> SyncPeer
    func setPeer(_ server: String, _ peer: SyncPeer) throws
    /// The device token a pairing gave this store for a server (its canonical URL), if any.
    func savedToken(server: String) throws -> String?
    /// Keeps a paired device's token for `server`, in place of one kept before.
    func saveToken(_ token: String, server: String) throws
    /// The servers this store keeps a token for, by URL.
    func savedServers() throws -> [String]
    /// Forgets this owner's log entirely (its entries and tombstones, field stamps, peers and
    /// device id): an owner removed and added again under the same name starts with none of the
    /// old one's history, so no device is answered the old owner's deletions.
    func forget() throws
    /// The keys of `kind` this owner's log holds as deleted (tombstones): what an import must not
    /// bring back, since every replica has deleted it.
    func deletedKeys(_ kind: SyncKind) throws -> Set<String>
}
