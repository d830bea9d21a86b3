/// Splits Lua's `chunk:line: message` into the line and the message.
enum LuaErrorText {
    /// When `text` starts with `chunk:N: `, the line N and the rest; otherwise no line and the whole text.
    static func split(_ text: String, chunk: String) -> (line: Int?, message: String) {
        let prefix = chunk + ":"
        guard text.hasPrefix(prefix) else { return (nil, text) }
        let rest = text.dropFirst(prefix.count)
        guard let end = rest.range(of: ": ") else { return (nil, text) }
        let digits = rest[rest.startIndex..<end.lowerBound]
        guard !digits.isEmpty, digits.allSatisfy(\.isNumber), let line = Int(digits) else { return (nil, text) }
        return (line, String(rest[end.upperBound...]))
    }
}
