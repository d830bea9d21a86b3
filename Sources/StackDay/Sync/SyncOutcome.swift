/// What applying one change did.
public enum SyncOutcome: Sendable, Equatable {
    /// The change is now this replica's state.
    case applied
    /// This replica already held it, or something that wins over it (a newer stamp, a tombstone).
    case kept
    /// A record or skip of a habit this replica deleted: gone with it.
    case dropped
    /// A revision whose number this replica already gave to other rules: kept under a new number.
    case renumbered(Int)
    /// A habit whose fields merged, some of those this replica held replaced by later ones.
    case replaced([SyncOverride])
}
