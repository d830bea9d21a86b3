import Foundation
import StackDay

/// An export file (CSV or JSON) as an import reads it: a chunk at a time, the catalog in one
/// pass and the records in a second, so that neither the file nor its records are held whole.
public struct ArchiveFile: ArchiveSource {
    /// `csv` or `json`.
    public let format: ArchiveFormat
    let input: ArchiveInput

    /// `format` must be `csv` or `json` (a Loop folder is read whole by `LoopImporter`).
    public init(_ url: URL, format: ArchiveFormat) {
        self.init(format: format, input: .file(url))
    }

    init(format: ArchiveFormat, input: ArchiveInput) {
        precondition(format != .loop, "a Loop folder is not one file")
        self.format = format
        self.input = input
    }

    public func catalog() throws -> ArchiveCatalog {
        format == .csv ? try ArchiveCSV.read(input, records: nil) : try ArchiveJSON.catalog(input)
    }

    public func forEachRecord(_ body: (ArchiveRecord) throws -> Void) throws {
        if format == .csv {
            _ = try withoutActuallyEscaping(body) { try ArchiveCSV.read(input, records: $0) }
        } else {
            try ArchiveJSON.forEachRecord(input, body)
        }
    }
}
