/// RFC 4180 CSV: fields separated by commas, quoted with `"` (doubled inside), rows by newlines.
/// Reads UTF-8 bytes directly: exports run to millions of rows.
struct CSVReader {
    struct Row {
        /// The 1-based line the row starts on.
        let line: Int
        let fields: [String]
    }

    /// Every row; throws `ImportFormatError` for an unterminated quote or text after a closing quote.
    static func rows(_ text: String, file: String) throws -> [Row] {
        var text = text
        return try text.withUTF8 { try rows(bytes: $0, file: file) }
    }

    static func rows(bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> [Row] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), ret = UInt8(ascii: "\r")
        var rows: [Row] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var line = 1
        var rowLine = 1
        var index = 0
        let count = bytes.count
        func finishField() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
        }
        while index < count {
            let byte = bytes[index]
            if byte == quote && field.isEmpty {
                // A quoted field: runs to the next lone quote.
                index += 1
                var closed = false
                while index < count {
                    let inner = bytes[index]
                    if inner == quote {
                        if index + 1 < count && bytes[index + 1] == quote {
                            field.append(quote)
                            index += 2
                            continue
                        }
                        index += 1
                        closed = true
                        break
                    }
                    if inner == newline { line += 1 }
                    field.append(inner)
                    index += 1
                }
                if !closed { throw ImportFormatError(file: file, line: rowLine, column: fields.count + 1, message: "unterminated quoted field") }
                if index < count, bytes[index] != comma, bytes[index] != newline, bytes[index] != ret {
                    throw ImportFormatError(file: file, line: line, column: fields.count + 1, message: "text after a closing quote")
                }
                continue
            }
            switch byte {
            case comma:
                finishField()
            case newline, ret:
                finishField()
                if !(fields.count == 1 && fields[0].isEmpty) { rows.append(Row(line: rowLine, fields: fields)) }
                fields.removeAll(keepingCapacity: true)
                if byte == ret, index + 1 < count, bytes[index + 1] == newline { index += 1 }
                line += 1
                rowLine = line
            default:
                field.append(byte)
            }
            index += 1
        }
        if !field.isEmpty || !fields.isEmpty {
            finishField()
            rows.append(Row(line: rowLine, fields: fields))
        }
        return rows
    }

    /// One field, quoted when it holds a comma, a quote or a line break.
    static func quote(_ field: String) -> String {
        guard field.utf8.contains(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "\r") })
        else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
