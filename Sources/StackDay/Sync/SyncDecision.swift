/// What `SyncMerger` decided to do with one change; a store carries it out as it says, under the
/// change's stamp unless the case says the write is the receiver's own.
public enum SyncDecision: Sendable, Equatable {
    /// Nothing to write: the replica holds the change, or something that wins over it.
    case keep
    /// A record or skip of a habit the replica deleted: gone with it, and said to the sender.
    case drop
    /// The entity's tombstone: its row deleted (or, never held, a tombstone logged for it).
    case delete
    /// A row the replica never held.
    case insert(SyncEntity)
    /// A newer version of a held row (a record's, or a revision's pins filled in).
    case update(SyncEntity)
    /// A held script and the same script from elsewhere, joined (`SyncMerger.mergeScript`): the
    /// write is the receiver's own when the join is not what came, so that the sender takes it back.
    case joinScript(SyncScript, own: Bool)
    /// A habit merged field by field: its new row and field stamps. `own` when the merge kept some
    /// of the receiver's fields: the write is then the receiver's, and the sender takes it back.
    case mergeHabit(SyncHabit, stamps: [SyncHabitField: SyncStamp], own: Bool, overrides: [SyncOverride])
    /// Only a habit's field stamps moved (the sender changed fields to what the receiver holds): the
    /// row is written again as held so its log entry carries the new stamps on.
    case restampHabit(SyncHabit, stamps: [SyncHabitField: SyncStamp])
    /// The server's own write: rules pushed under a number it gave to other rules, kept under the
    /// next free one (the revision's number).
    case renumber(SyncEntity)
    /// A device takes the server's revision under its number; its own unpushed rules from that
    /// number on (`moved`, each renumbered one up already, in order) go on as the device's own writes.
    case replaceRevision(SyncEntity, moved: [SyncEntity])


    /// What the change did, as a sync answers it.
    public var outcome: SyncOutcome {
        switch self {
        case .keep: .kept
        case .drop: .dropped
        case .renumber(let revision): .renumbered(Int(revision.numbered?.number ?? 0))
        case .mergeHabit(_, _, _, let overrides) where !overrides.isEmpty: .replaced(overrides)
        case .delete, .insert, .update, .joinScript, .mergeHabit, .restampHabit, .replaceRevision: .applied
        }
    }
}
