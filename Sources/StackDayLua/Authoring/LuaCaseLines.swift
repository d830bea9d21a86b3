/// Finds the line each case of a list starts on in Lua source text: the `{` of each table at the
/// top level of `examples = { … }`, `tests = { … }`, or the list a file `return`s. Strings, long
/// brackets and comments are skipped, so braces inside them do not count.
///
/// A light reading of the text, not a parser: a list built by code (a loop, a function call)
/// has no lines to give, and its cases are named by their number alone.
enum LuaCaseLines {
    /// The lines of the elements of the list assigned to `field` (`examples`, `tests`), or of
    /// the list the chunk returns when `field` is nil; 1-based, in order.
    static func lines(in source: String, field: String?) -> [Int] {
        let bytes = Array(source.utf8)
        var index = 0, line = 1, depth = 0
        var listDepth: Int? = nil
        var lines: [Int] = []
        // The last two significant tokens: a name and `=`, or `return`.
        var previous: [String] = []
        func note(_ token: String) {
            previous.append(token)
            if previous.count > 2 { previous.removeFirst() }
        }
        func longBracket(at start: Int) -> Int? {
            // `[`, some `=`, `[`: the level, or nil.
            guard start < bytes.count, bytes[start] == UInt8(ascii: "[") else { return nil }
            var level = 0, at = start + 1
            while at < bytes.count, bytes[at] == UInt8(ascii: "=") { level += 1; at += 1 }
            return at < bytes.count && bytes[at] == UInt8(ascii: "[") ? level : nil
        }
        func skipLong(level: Int) {
            // From just after the opening bracket to just after its closing one.
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\n") { line += 1 }
                if bytes[index] == UInt8(ascii: "]") {
                    var at = index + 1, count = 0
                    while at < bytes.count, bytes[at] == UInt8(ascii: "=") { count += 1; at += 1 }
                    if count == level, at < bytes.count, bytes[at] == UInt8(ascii: "]") { index = at + 1; return }
                }
                index += 1
            }
        }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\n"):
                line += 1
                index += 1
            case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "-"):
                index += 2
                if let level = longBracket(at: index) {
                    index += level + 2
                    skipLong(level: level)
                } else {
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while index < bytes.count, bytes[index] != byte {
                    if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                    if index < bytes.count, bytes[index] == UInt8(ascii: "\n") { line += 1 }
                    index += 1
                }
                index += 1
                note("string")
            case UInt8(ascii: "["):
                if let level = longBracket(at: index) {
                    index += level + 2
                    skipLong(level: level)
                    note("string")
                } else {
                    index += 1
                    note("[")
                }
            case UInt8(ascii: "{"):
                if listDepth == nil {
                    let opens = field.map { previous == [$0, "="] } ?? (previous.last == "return" && depth == 0)
                    if opens { listDepth = depth + 1 }
                } else if depth == listDepth {
                    lines.append(line)
                }
                depth += 1
                index += 1
                note("{")
            case UInt8(ascii: "}"):
                depth -= 1
                if let listDepth, depth < listDepth { return lines }
                index += 1
                note("}")
            default:
                if (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")) || byte == UInt8(ascii: "_") {
                    let start = index
                    while index < bytes.count, bytes[index] == UInt8(ascii: "_") || (bytes[index] >= 48 && bytes[index] <= 57)
                            || (bytes[index] | 0x20 >= UInt8(ascii: "a") && bytes[index] | 0x20 <= UInt8(ascii: "z")) {
                        index += 1
                    }
                    note(String(decoding: bytes[start..<index], as: UTF8.self))
                } else if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "="), "=<>~".utf8.contains(byte) {
                    // `==`, `<=`, `>=`, `~=`: one token, never the `=` of an assignment.
                    note(String(decoding: bytes[index...index + 1], as: UTF8.self))
                    index += 2
                } else {
                    if byte > 32 { note(String(UnicodeScalar(byte))) }
                    index += 1
                }
            }
        }
        return lines
    }
}
