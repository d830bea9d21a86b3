import StackDay

/// A JSON document whose root is an object, walked a chunk at a time: a member's value is parsed
/// whole, except that an array's elements are handed over one by one, so a document with a
/// million records holds one record at a time. Positions in errors are the file's line and column.
struct JSONObjectStream {
    private let input: ChunkedInput
    private let file: String
    /// The next byte's index in `input.buffer`.
    private var index = 0
    private var line = 1
    /// Where the current line starts, counted from the start of the input.
    private var lineStart = 0

    init(input: ChunkedInput, file: String) {
        self.input = input
        self.file = file
    }

    /// Walks the root object. A member whose value is not an array goes to `member`; each element
    /// of one that is goes to `element` with its index, parsed when `parsing(key)` says so and nil
    /// otherwise (only its extent is checked). Returns the keys whose values were arrays.
    mutating func walk(
        parsing: (String) -> Bool, member: (String, JSONValue) throws -> Void, element: (String, Int, JSONValue?) throws -> Void
    ) throws -> Set<String> {
        var arrays: Set<String> = []
        try skipSpace()
        try expect(UInt8(ascii: "{"), "the file to start with {")
        try skipSpace()
        if try peek() == UInt8(ascii: "}") {
            advance()
        } else {
            while true {
                try skipSpace()
                guard try peek() == UInt8(ascii: "\"") else { throw failure("expected a member name in quotes") }
                guard case .string(let key) = try value() else { throw failure("expected a member name") }
                try skipSpace()
                try expect(UInt8(ascii: ":"), ": after \"\(key)\"")
                try skipSpace()
                if try peek() == UInt8(ascii: "[") {
                    advance()
                    arrays.insert(key)
                    let parse = parsing(key)
                    try skipSpace()
                    if try peek() == UInt8(ascii: "]") {
                        advance()
                    } else {
                        var count = 0
                        while true {
                            try skipSpace()
                            if parse {
                                try element(key, count, try value())
                            } else {
                                _ = try scanValue()
                                try element(key, count, nil)
                            }
                            count += 1
                            try skipSpace()
                            guard let byte = try peek(), byte == UInt8(ascii: ",") || byte == UInt8(ascii: "]") else {
                                throw failure("expected , or ] after \(key)[\(count - 1)]")
                            }
                            advance()
                            if byte == UInt8(ascii: "]") { break }
                        }
                    }
                } else {
                    try member(key, try value())
                }
                try skipSpace()
                guard let byte = try peek(), byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") else {
                    throw failure("expected , or } after the value of \"\(key)\"")
                }
                advance()
                if byte == UInt8(ascii: "}") { break }
            }
        }
        try skipSpace()
        guard try peek() == nil else { throw failure("text after the end of the document") }
        return arrays
    }

    private func failure(_ message: String, at offset: Int? = nil) -> ImportFormatError {
        ImportFormatError(file: file, line: line, column: (offset ?? input.offset + index) - lineStart + 1, message: message)
    }

    /// The next byte without using it; nil at the end of the input.
    private mutating func peek() throws -> UInt8? {
        while index == input.buffer.count {
            if input.isAtEnd { return nil }
            try input.advance(dropping: index)
            index = 0
        }
        return input.buffer[index]
    }

    /// Uses the byte `peek` answered (never a line break: `skipSpace` and `scanValue` count those).
    private mutating func advance() {
        index += 1
    }

    private mutating func expect(_ byte: UInt8, _ what: String) throws {
        guard try peek() == byte else { throw failure("expected \(what)") }
        advance()
    }

    private mutating func skipSpace() throws {
        while let byte = try peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            index += 1
            if byte == 0x0A {
                line += 1
                lineStart = input.offset + index
            }
        }
    }

    /// The next value, parsed.
    private mutating func value() throws -> JSONValue {
        let start = input.offset + index, startLine = line, startColumn = start - lineStart + 1
        // The range first: scanning may read on, which moves the buffer.
        let range = try scanValue()
        let text = String(decoding: input.buffer[range], as: UTF8.self)
        do {
            return try JSONValue(parsing: text)
        } catch {
            // The parser's column counts bytes from the value's start.
            var errorLine = startLine, errorColumn = startColumn
            for byte in text.utf8.prefix(max(0, error.column - 1)) {
                if byte == 0x0A { errorLine += 1; errorColumn = 1 } else { errorColumn += 1 }
            }
            throw ImportFormatError(file: file, line: errorLine, column: errorColumn, message: error.reason)
        }
    }

    /// Uses the next value: a string up to its closing quote, an object or array up to its closing
    /// bracket (strings inside skipped), anything else up to a separator. Answers where its bytes
    /// are in `input.buffer` (valid until the next `peek`); nothing is copied, so a value only
    /// counted costs no allocation.
    private mutating func scanValue() throws -> Range<Int> {
        guard let first = try peek() else { throw failure("unexpected end of the file; expected a value") }
        let quote = UInt8(ascii: "\""), backslash = UInt8(ascii: "\\")
        let scalar = first != quote && first != UInt8(ascii: "{") && first != UInt8(ascii: "[")
        var start = index
        var cursor = index
        var depth = 0, inString = false, escaped = false
        scanning: while true {
            if cursor == input.buffer.count {
                if input.isAtEnd {
                    if scalar { break scanning }
                    throw failure("unexpected end of the file inside a value", at: input.offset + start)
                }
                try input.advance(dropping: start)
                cursor -= start
                start = 0
                continue
            }
            let byte = input.buffer[cursor]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == backslash {
                    escaped = true
                } else if byte == quote {
                    inString = false
                    if depth == 0 { cursor += 1; break scanning }
                }
            } else if scalar {
                switch byte {
                case UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"), 0x20, 0x09, 0x0A, 0x0D: break scanning
                default: break
                }
            } else {
                switch byte {
                case quote: inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    depth -= 1
                    if depth == 0 { cursor += 1; break scanning }
                default: break
                }
            }
            cursor += 1
        }
        for position in start..<cursor where input.buffer[position] == 0x0A {
            line += 1
            lineStart = input.offset + position + 1
        }
        index = cursor
        return start..<cursor
    }
}
