/// One record of an archive, as `ArchiveSource.forEachRecord` hands it over.
public enum ArchiveRecord: Sendable {
    case completion(Completion)
    case skip(Skip)
}
