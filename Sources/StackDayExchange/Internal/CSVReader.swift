/// RFC 4180 CSV: fields separated by commas, quoted with `"` (doubled inside), rows by newlines.
/// Reads UTF-8 bytes directly, a field at a time: exports run to millions of rows.
struct CSVReader {
    struct Row {
        /// The 1-based line the row starts on.
        let line: Int
        let fields: [String]
    }

    /// A row's fields as bytes, valid only inside the `forEachRow` call that hands it over.
    struct RowView {
        let line: Int
        fileprivate let ranges: [(quoted: Bool, start: Int, end: Int)]
        fileprivate let input: UnsafeBufferPointer<UInt8>
        fileprivate let scratch: UnsafeBufferPointer<UInt8>

        var count: Int { ranges.count }

        subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
            let range = ranges[index]
            let source = range.quoted ? scratch : input
            return UnsafeBufferPointer(rebasing: source[range.start..<range.end])
        }

        func string(_ index: Int) -> String {
            let bytes = self[index]
            return bytes.isEmpty ? "" : String(decoding: bytes, as: UTF8.self)
        }

        var strings: [String] { (0..<count).map(string) }
    }

    /// Every row, as Strings; throws `ImportFormatError` for an unterminated quote or a stray quote.
    static func rows(_ text: String, file: String) throws -> [Row] {
        var rows: [Row] = []
        try forEachRow(text, file: file) { rows.append(Row(line: $0.line, fields: $0.strings)) }
        return rows
    }

    /// Hands each row to `body` as byte ranges, building no Strings (exports run to millions of rows).
    static func forEachRow(_ text: String, file: String, _ body: (RowView) throws -> Void) throws {
        var text = text
        _ = try text.withUTF8 { try forEachRow(bytes: $0, file: file, firstLine: 1, isFinal: true, body) }
    }

    /// The same over a file read a chunk at a time: only the rows a chunk holds are in memory.
    static func forEachRow(in input: ChunkedInput, file: String, _ body: (RowView) throws -> Void) throws {
        var line = 1
        while true {
            let isFinal = input.isAtEnd
            let (used, next) = try input.buffer.withUnsafeBufferPointer {
                try forEachRow(bytes: $0, file: file, firstLine: line, isFinal: isFinal, body)
            }
            line = next
            if isFinal { return }
            try input.advance(dropping: used)
        }
    }

    /// The rows of `bytes`, the first on line `firstLine`. Unless `isFinal`, a row still open at
    /// the end (no line break after it yet) is left for the next call: the answer is how many
    /// bytes were used and the line the next row starts on.
    static func forEachRow(
        bytes: UnsafeBufferPointer<UInt8>, file: String, firstLine: Int, isFinal: Bool, _ body: (RowView) throws -> Void
    ) throws -> (used: Int, nextLine: Int) {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), ret = UInt8(ascii: "\r")
        let count = bytes.count
        var ranges: [(quoted: Bool, start: Int, end: Int)] = []
        var scratch: [UInt8] = []
        var line = firstLine
        var rowLine = firstLine
        var rowStart = 0
        var index = 0
        func emit() throws {
            defer {
                ranges.removeAll(keepingCapacity: true)
                scratch.removeAll(keepingCapacity: true)
            }
            if ranges.count == 1, !ranges[0].quoted, ranges[0].start == ranges[0].end { return } // a blank line
            try scratch.withUnsafeBufferPointer { try body(RowView(line: rowLine, ranges: ranges, input: bytes, scratch: $0)) }
        }
        while index < count {
            // At the start of a field.
            if bytes[index] == quote {
                index += 1
                let start = scratch.count
                var closed = false
                while index < count {
                    let byte = bytes[index]
                    if byte == quote {
                        if index + 1 < count && bytes[index + 1] == quote {
                            scratch.append(quote)
                            index += 2
                            continue
                        }
                        // A quote last in the chunk may be the first of a doubled pair.
                        if index + 1 == count && !isFinal { return (rowStart, rowLine) }
                        index += 1
                        closed = true
                        break
                    }
                    if byte == newline { line += 1 }
                    scratch.append(byte)
                    index += 1
                }
                if !closed {
                    if !isFinal { return (rowStart, rowLine) }
                    throw ImportFormatError(file: file, line: rowLine, column: ranges.count + 1, message: "unterminated quoted field")
                }
                if index < count, bytes[index] != comma, bytes[index] != newline, bytes[index] != ret {
                    throw ImportFormatError(file: file, line: line, column: ranges.count + 1, message: "text after a closing quote")
                }
                ranges.append((true, start, scratch.count))
            } else {
                let start = index
                while index < count, bytes[index] != comma, bytes[index] != newline, bytes[index] != ret {
                    if bytes[index] == quote {
                        throw ImportFormatError(file: file, line: line, column: ranges.count + 1, message: "a quote inside an unquoted field")
                    }
                    index += 1
                }
                ranges.append((false, start, index))
            }
            // At a separator, or the end.
            guard index < count else { break }
            if bytes[index] == comma {
                index += 1
                if index == count {
                    if !isFinal { return (rowStart, rowLine) }
                    ranges.append((false, index, index))
                }
                continue
            }
            if bytes[index] == ret {
                if index + 1 == count && !isFinal { return (rowStart, rowLine) }
                if index + 1 < count, bytes[index + 1] == newline { index += 1 }
            }
            index += 1
            try emit()
            line += 1
            rowLine = line
            rowStart = index
        }
        if !isFinal { return (rowStart, rowLine) }
        if !ranges.isEmpty { try emit() }
        return (count, line)
    }

    /// One field, quoted when it holds a comma, a quote or a line break.
    static func quote(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
        else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
