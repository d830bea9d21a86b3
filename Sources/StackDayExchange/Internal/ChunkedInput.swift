import Foundation

/// Bytes handed over a chunk at a time: from a file, so that an import of millions of records
/// never holds the whole file, or from memory. A reader parses what `buffer` holds, says how
/// much of it it has used, and asks for more. A file's bytes are checked to be UTF-8 as they
/// are read (a file that is not fails naming the byte); a leading byte order mark is dropped.
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
    private var utf8 = UTF8Check()

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
        // Spreadsheets often save CSV with a byte order mark: it is not part of the header.
        while buffer.count < 3 && !isAtEnd { try advance(dropping: 0) }
        if buffer.starts(with: [0xEF, 0xBB, 0xBF]) {
            buffer.removeFirst(3)
            offset = 3
        }
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
            if let bad = utf8.finish() { throw notText(at: bad) }
            return
        }
        let start = buffer.count
        buffer.append(contentsOf: chunk)
        if let bad = buffer.withUnsafeBufferPointer({ utf8.check(UnsafeBufferPointer(rebasing: $0[start...])) }) { throw notText(at: bad) }
    }

    private func notText(at offset: Int) -> ImportFormatError {
        ImportFormatError(file: path, line: nil, column: nil, message: "not UTF-8 text: byte \(offset + 1) of the file is not part of a UTF-8 character")
    }
}
