/// What an import did.
public struct ImportSummary: Hashable, Sendable {
    /// Records written by this run.
    public let inserted: Int
    /// Records whose id was already stored, left as they were.
    public let alreadyPresent: Int

    public init(inserted: Int, alreadyPresent: Int) {
        self.inserted = inserted
        self.alreadyPresent = alreadyPresent
    }
}
