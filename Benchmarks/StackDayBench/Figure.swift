/// One row of the results table.
struct Figure {
    let id: String
    let compared: String
    let engine: String
    let baseline: String
    /// The ratio as the target states it.
    let ratio: Double
    let target: String
    /// Whether the target is met; nil for reported-only figures.
    let met: Bool?
}

enum Table {
    static func render(_ figures: [Figure]) -> String {
        var rows = [["figure", "what is compared", "engine", "baseline", "ratio", "target", "met"]]
        for figure in figures {
            // A baseline too small to measure (0) leaves no ratio to print.
            let ratio = !figure.ratio.isFinite ? "-" : figure.ratio >= 100 ? String(Int(figure.ratio.rounded())) : String(format: "%.2f", figure.ratio)
            rows.append([figure.id, figure.compared, figure.engine, figure.baseline, ratio + "×", figure.target,
                         figure.met.map { $0 ? "yes" : "NO" } ?? "-"])
        }
        var widths = [Int](repeating: 0, count: rows[0].count)
        for row in rows { for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) } }
        var lines: [String] = []
        for (number, row) in rows.enumerated() {
            lines.append("| " + row.enumerated().map { $0.element + String(repeating: " ", count: widths[$0.offset] - $0.element.count) }.joined(separator: " | ") + " |")
            if number == 0 { lines.append("|" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "|") + "|") }
        }
        return lines.joined(separator: "\n")
    }

    static func seconds(_ value: Double) -> String {
        value >= 1 ? String(format: "%.2f s", value) : value >= 0.001 ? String(format: "%.1f ms", value * 1000) : String(format: "%.1f µs", value * 1e6)
    }
}
