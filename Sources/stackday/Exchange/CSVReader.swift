/// RFC 4180 CSV: fields separated by commas, quoted with `"` (doubled inside), rows by newlines.
struct CSVReader {
    struct Row {
        /// The 1-based line the row starts on.
        let line: Int
        let fields: [String]
    }

    /// Every row; throws `ImportFormatError` for an unterminated quote or text after a closing quote.
    static func rows(_ text: String, file: String) throws -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var rowLine = 1
        var inQuotes = false
        var afterQuote = false
        var characters = text.makeIterator()
        var pending: Character? = nil
        func next() -> Character? {
            if let character = pending { pending = nil; return character }
            return characters.next()
        }
        while let character = next() {
            if inQuotes {
                if character == "\"" {
                    if let following = next() {
                        if following == "\"" { field.append("\""); continue }
                        pending = following
                    }
                    inQuotes = false
                    afterQuote = true
                } else {
                    if character == "\n" || character == "\r\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case ",":
                fields.append(field); field = ""; afterQuote = false
            case "\n", "\r\n", "\r":
                fields.append(field); field = ""; afterQuote = false
                if !(fields.count == 1 && fields[0].isEmpty) { rows.append(Row(line: rowLine, fields: fields)) }
                fields = []
                line += 1
                rowLine = line
            case "\"" where field.isEmpty && !afterQuote:
                inQuotes = true
            default:
                if afterQuote {
                    throw ImportFormatError(file: file, line: line, column: fields.count + 1, message: "text after a closing quote")
                }
                field.append(character)
            }
        }
        if inQuotes { throw ImportFormatError(file: file, line: rowLine, column: fields.count + 1, message: "unterminated quoted field") }
        if !field.isEmpty || !fields.isEmpty {
            fields.append(field)
            rows.append(Row(line: rowLine, fields: fields))
        }
        return rows
    }

    /// One field, quoted when it holds a comma, a quote or a line break.
    static func quote(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}
