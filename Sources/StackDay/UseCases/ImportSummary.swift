/// What an import did.
public struct ImportSummary: Hashable, Sendable {
    /// Records written by this run.
    public let inserted: Int
    /// Records whose id was already stored, left as they were.
    public let alreadyPresent: Int
    /// Notes the source held on days it has no record for, not kept (`HabitArchive.unplacedNotes`).
    public let unplacedNotes: Int

    public init(inserted: Int, alreadyPresent: Int, unplacedNotes: Int = 0) {
        self.inserted = inserted
        self.alreadyPresent = alreadyPresent
        self.unplacedNotes = unplacedNotes
    }
}
