/// What an import did.
public struct ImportSummary: Hashable, Sendable {
    /// Records written by this run.
    public let inserted: Int
    /// Records whose id was already stored, left as they were.
    public let alreadyPresent: Int
    /// Notes the source held on days it has no record for, not kept (`HabitArchive.unplacedNotes`).
    public let unplacedNotes: Int
    /// Habits, records and skips the source holds that this store deleted and synced as deleted
    /// (a habit's records with it): kept deleted, since every replica deleted them.
    public let keptDeleted: Int

    public init(inserted: Int, alreadyPresent: Int, unplacedNotes: Int = 0, keptDeleted: Int = 0) {
        self.inserted = inserted
        self.alreadyPresent = alreadyPresent
        self.keptDeleted = keptDeleted
        self.unplacedNotes = unplacedNotes
    }
}
