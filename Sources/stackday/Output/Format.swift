import StackDay

/// Small text helpers shared by the commands.
enum Format {
    /// `8`, `2.5`, `0.125`.
    static func amount(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        while text.hasSuffix("0") { text.removeLast() }
        return text
    }

    /// `54 cups`, `3`.
    static func quantity(_ value: Double, unit: String) -> String {
        unit.isEmpty ? amount(value) : "\(amount(value)) \(unit)"
    }

    static func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }

    /// A bar of `width` cells, filled in proportion to `fraction` (0…1).
    static func bar(_ fraction: Double, width: Int = 8) -> String {
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded(.down))))
        return String(repeating: "▇", count: filled) + String(repeating: "▁", count: width - filled)
    }

    /// Left-aligned columns separated by two spaces; widths count characters.
    static func table(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        return rows.map { row in
            row.enumerated().map { index, cell in
                index == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - cell.count)
            }.joined(separator: "  ")
        }
    }
}
