/// One line a policy wrote with `trace(...)`: where it was called, the day of the call (none for
/// a call about a range or no day), and the text. Shown only when asked for (`policy test`,
/// `--trace`, the rule lab); ordinary evaluation writes none.
public struct PolicyTraceLine: Hashable, Sendable, CustomStringConvertible {
    /// The file's name as errors write it (`two.lua`).
    public let file: String
    public let line: Int
    public let day: LocalDay?
    public let text: String

    public init(file: String, line: Int, day: LocalDay?, text: String) {
        self.file = file
        self.line = line
        self.day = day
        self.text = text
    }

    /// `two.lua:12 2026-11-03 text`, the day left out when there is none.
    public var description: String {
        "\(file):\(line) " + (day.map { "\($0.iso) " } ?? "") + text
    }

    /// The line as the host writes it (`parse` reads it back).
    public var encoded: String { "\(file):\(line)\t\(day?.iso ?? "-")\t\(text)\n" }

    /// Lines as the host writes them: `chunk:line<TAB>YYYY-MM-DD or -<TAB>text`, one a line.
    public static func parse(_ text: String) -> [PolicyTraceLine] {
        text.split(separator: "\n").compactMap { row in
            let parts = row.split(separator: "\t", maxSplits: 2, omittingEmptySubsequences: false)
            guard parts.count == 3, let colon = parts[0].lastIndex(of: ":"), let line = Int(parts[0][parts[0].index(after: colon)...]) else { return nil }
            return PolicyTraceLine(file: String(parts[0][..<colon]), line: line, day: try? LocalDay(iso: String(parts[1])), text: String(parts[2]))
        }
    }
}
