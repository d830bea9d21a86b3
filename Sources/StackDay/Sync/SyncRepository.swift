/// One owner's change log in a store, and the merge of changes from elsewhere into it.
///
/// The log is the store's own (its triggers stamp every write once the owner syncs), so writes
/// made by any program are synced. Every method runs inside the transaction that handed it out.
public protocol SyncRepository {
    /// Starts logging this owner's writes, if it has not, under a new device id `makeDevice()`
    /// (every entity already held is logged then, in dependency order); answers the device id.
    func start(makeDevice: () -> String) throws -> String
    /// Up to `limit` log entries after `position`, by `scope`: those `device` made (what a device
    /// pushes), those it did not (what a server answers it), or all (what a device pushes to a
    /// server of a new epoch). `device`'s own carry their place in the log (`SyncChange.seq`).
    func changes(after position: Int64, device: String, scope: SyncScope, limit: Int) throws -> SyncPage
    /// Merges a batch of changes in (`SyncRules`), as `replica`, parents first
    /// (`SyncRules.order`); answers what each did. `SyncError.invalidChange` names the change
    /// by its index in `changes`.
    func apply(_ changes: [SyncChange], as replica: SyncReplica) throws -> [SyncOutcome]
    /// Gives every live habit a name no other habit holds, and every group one no other group
    /// holds: of two with one name, the one created later (then the greater id) is renamed
    /// `NAME (2)`, `NAME (3)`, … (`SyncMerger.settledNames`); answers the renames.
    func settleNames() throws -> [SyncDecided.Renamed]
    /// The store's identity as a sync server: made on first use; a new epoch when `store` (the
    /// store's own identity: its file's, its database's) is not the one the epoch was made under.
    func identity(store: String?) throws -> SyncServerIdentity
    /// The mark of `position` in this server's log (`SyncResponse.mark`): made at random and kept
    /// the first time it is asked for when `make`; else nil when none was made.
    func mark(at position: Int64, make: Bool) throws -> String?
    /// A new epoch: the store lost history (a device asked from past its log's end).
    func newEpoch() throws -> SyncServerIdentity
    /// What the server took from `device` at these places of its log: each one's
    /// `SyncChange.fingerprint`, for the places it took something.
    func received(from device: String, at seqs: [Int64]) throws -> [Int64: Int64]
    /// A server's answer to a store that left device id `device` (a copy, or a backup put back, that
    /// took one of its own): what it took under that id, which may hold the other store's changes,
    /// is logged again as the server's, so the store that keeps the id pulls them too. Once for
    /// each id a store leaves it for (`successor`); answers how many entries moved.
    func retire(device: String, for successor: String) throws -> Int
    /// The latest number of `device`'s own writes the server took (`SyncChange.seq`); nil for none.
    func lastReceived(from device: String) throws -> Int64?
    /// Keeps the fingerprints of changes taken from `device`, by their places in its log.
    func receive(_ fingerprints: [Int64: Int64], from device: String) throws
    /// The log's hybrid clock: the latest time it stamped.
    func hybridTime() throws -> Int64
    /// The time this store stamps by now (its clock's, else the machine's), as a hybrid time.
    func currentTime() -> Int64
    /// Brings a clock that ran ahead back to `hlc`: the log's clock, and every entry `device` made
    /// after `position` (not pushed yet) or field stamp later than `hlc`, restamped from it in log
    /// order. Answers how many entries it restamped.
    func rebaseClock(to hlc: Int64, device: String, after position: Int64) throws -> Int
    /// Gives this store's log a new device id: its own entries become the new id's, pushed again
    /// to every server, and everything is pulled again (`stackday sync --new-device`, or a copy
    /// the server recognised). Answers the id it had.
    func moveDevice(to device: String) throws -> String
    /// Keeps what a sync decided beyond copying, in place of the last one kept.
    func keepDecided(_ decided: SyncDecided) throws
    /// The last `keepDecided`; nil when none was kept.
    func lastDecided() throws -> SyncDecided?
    /// How many entries the log holds after `position` in `scope` (what a push has to send).
    func pending(after position: Int64, device: String, scope: SyncScope) throws -> Int
    /// How many writes this store made itself (not taken from elsewhere) since it started logging:
    /// the number its latest own change is known by (`SyncChange.seq`).
    func ownWrites() throws -> Int64
    /// The log's latest position.
    func position() throws -> Int64
    func peer(_ server: String) throws -> SyncPeer
    func setPeer(_ server: String, _ peer: SyncPeer) throws
    /// What a pairing gave this store for a server (its canonical URL), if anything.
    func savedCredential(server: String) throws -> SyncCredential?
    /// Keeps what a pairing gave this device for `server`, in place of what was kept before.
    func saveCredential(_ credential: SyncCredential, server: String) throws
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
