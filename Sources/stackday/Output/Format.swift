import StackDay

/// Small text helpers shared by the commands.
enum Format {
    /// `54 cups`, `3`.
    static func quantity(_ value: Double, unit: String) -> String {
        unit.isEmpty ? Quantity.describe(value) : "\(Quantity.describe(value)) \(unit)"
    }

    static func percent(_ value: Double) -> String { "\(Int((value * 100).rounded()))%" }

    /// A bar of `width` cells, filled in proportion to `fraction` (0…1).
    static func bar(_ fraction: Double, width: Int = 8) -> String {
        let filled = max(0, min(width, Int((fraction * Double(width)).rounded(.down))))
        return String(repeating: "▇", count: filled) + String(repeating: "▁", count: width - filled)
    }

    /// Left-aligned columns separated by two spaces, aligned by terminal display width.
    ///
    /// A row's last cell is never padded, so it does not widen its column (a short row's long
    /// message stays out of the other rows' way).
    static func table(_ rows: [[String]]) -> [String] {
        guard let columns = rows.map(\.count).max() else { return [] }
        var widths = [Int](repeating: 0, count: columns)
        for row in rows {
            for (index, cell) in row.enumerated().dropLast() { widths[index] = max(widths[index], DisplayWidth.of(cell)) }
        }
        return rows.map { row in
            // Empty cells at the end of a row leave no trailing blanks.
            let cells = row.reversed().drop(while: \.isEmpty).reversed()
            return cells.enumerated().map { index, cell in
                index == cells.count - 1 ? cell : cell + String(repeating: " ", count: widths[index] - DisplayWidth.of(cell))
            }.joined(separator: "  ")
        }
    }
}
