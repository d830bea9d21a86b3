/// An archive an import reads twice, in order: first its catalog (habits, scripts and how many
/// records follow), then its records one at a time. A file-backed source streams, so that an
/// import of millions of records holds one slice of them, never the whole file.
public protocol ArchiveSource {
    /// Everything but the records. Throws what a malformed file is (`ImportFormatError` for the
    /// exchange formats) before anything is written.
    func catalog() throws -> ArchiveCatalog

    /// Hands over each completion and skip in the order the source holds them. A malformed record
    /// throws here, inside the import's transaction, which then writes nothing.
    func forEachRecord(_ body: (ArchiveRecord) throws -> Void) throws
}

extension HabitArchive: ArchiveSource {
    public func catalog() throws -> ArchiveCatalog {
        ArchiveCatalog(habits: habits, scripts: scripts, groups: groups, records: completions.count + skips.count, unplacedNotes: unplacedNotes)
    }

    public func forEachRecord(_ body: (ArchiveRecord) throws -> Void) throws {
        for skip in skips { try body(.skip(skip)) }
        for completion in completions { try body(.completion(completion)) }
    }
}

extension HabitArchive {
    /// The whole of `source` in memory (for small archives and for tests).
    public init(collecting source: some ArchiveSource) throws {
        let catalog = try source.catalog()
        self.init(habits: catalog.habits, scripts: catalog.scripts, groups: catalog.groups)
        unplacedNotes = catalog.unplacedNotes
        try source.forEachRecord { record in
            switch record {
            case .completion(let completion): completions.append(completion)
            case .skip(let skip): skips.append(skip)
            }
        }
    }
}
