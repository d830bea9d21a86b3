import Foundation

/// Where an archive's bytes come from, opened afresh for each pass an import makes over them.
struct ArchiveInput {
    let file: String
    let open: () throws -> ChunkedInput

    /// A file read `chunkSize` bytes at a time.
    static func file(_ url: URL, chunkSize: Int = 1 << 20) -> ArchiveInput {
        ArchiveInput(file: url.path) { try ChunkedInput(file: url, chunkSize: chunkSize) }
    }

    /// Bytes already in memory, named `file` in errors.
    static func bytes(_ bytes: [UInt8], file: String) -> ArchiveInput {
        ArchiveInput(file: file) { ChunkedInput(bytes: bytes, path: file) }
    }
}
