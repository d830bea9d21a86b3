/// An HTTP/1.1 answer as read: its status, headers (names lowercased) and body (de-chunked).
public struct HTTPClientAnswer: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    /// The body as text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Reads a whole answer (the connection closed after it).
    public init(parsing answer: [UInt8]) throws {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0..<max(0, answer.count - 3)).first(where: { Array(answer[$0..<$0 + 4]) == separator }) else {
            throw HTTPClientError.invalidAnswer("is not an HTTP response")
        }
        let lines = String(decoding: answer[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else { throw HTTPClientError.invalidAnswer("has no status line") }
        self.status = status
        headers = lines.dropFirst().compactMap { line in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (line[..<colon].lowercased(), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        let raw = Array(answer[(end + 4)...])
        let chunked = headers.contains { $0.name == "transfer-encoding" && $0.value.lowercased().contains("chunked") }
        body = chunked ? try Self.dechunk(raw) : raw
    }

    private static func dechunk(_ bytes: [UInt8]) throws -> [UInt8] {
        var out: [UInt8] = []
        var index = 0
        while index < bytes.count {
            guard let lineEnd = bytes[index...].firstIndex(of: 13), lineEnd + 1 < bytes.count else { throw HTTPClientError.invalidAnswer("has a broken chunk") }
            let sizeText = String(decoding: bytes[index..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16) else { throw HTTPClientError.invalidAnswer("has a broken chunk") }
            if size == 0 { break }
            let start = lineEnd + 2
            guard start + size <= bytes.count else { throw HTTPClientError.invalidAnswer("has a broken chunk") }
            out += bytes[start..<start + size]
            index = start + size + 2
        }
        return out
    }
}
