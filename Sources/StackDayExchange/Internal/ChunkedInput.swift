import Foundation

/// Bytes handed over a chunk at a time: from a file, so that an import of millions of records
/// never holds the whole file, or from memory. A reader parses what `buffer` holds, says how
/// much of it it has used, and asks for more.
final class ChunkedInput {
    /// The bytes not yet used, then those read after them.
    private(set) var buffer: [UInt8]
    /// True once the file has nothing more to give: `buffer` holds the rest.
    private(set) var isAtEnd: Bool
    /// Bytes dropped from the front so far: where `buffer[0]` is in the input.
    private(set) var offset = 0
    private let handle: FileHandle?
    private let path: String
    private let chunkSize: Int

    /// Opens `file`, to be read `chunkSize` bytes at a time; throws `ImportFormatError` naming it
    /// when it cannot be read.
    init(file: URL, chunkSize: Int = 1 << 20) throws {
        path = file.path
        self.chunkSize = max(1, chunkSize)
        do {
            handle = try FileHandle(forReadingFrom: file)
        } catch {
            throw ImportFormatError(file: file.path, line: nil, column: nil, message: "cannot read the file: \(error.localizedDescription)")
        }
        buffer = []
        isAtEnd = false
        try advance(dropping: 0)
    }

    /// All of `bytes` at once.
    init(bytes: [UInt8], path: String) {
        buffer = bytes
        isAtEnd = true
        handle = nil
        self.path = path
        chunkSize = bytes.count
    }

    deinit {
        try? handle?.close()
    }

    /// Drops the first `consumed` bytes of `buffer` and appends the next chunk of the file.
    func advance(dropping consumed: Int) throws {
        if consumed > 0 {
            buffer.removeFirst(consumed)
            offset += consumed
        }
        guard let handle, !isAtEnd else { return }
        let chunk: Data?
        do {
            chunk = try handle.read(upToCount: chunkSize)
        } catch {
            throw ImportFormatError(file: path, line: nil, column: nil, message: "cannot read the file: \(error.localizedDescription)")
        }
        guard let chunk, !chunk.isEmpty else {
            isAtEnd = true
            return
        }
        buffer.append(contentsOf: chunk)
    }
}
