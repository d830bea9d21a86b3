import StackDay

/// The lab's chart: over the real history, the score (0–100 %) and the streak (scaled to the
/// longest of either) under the current rules (solid) and the proposed ones (dashed), with a
/// mark under every day that differs; sized by its `viewBox`, and followed by its legend.
struct LabChartSVG {
    let current: [SimulatedDay]
    let proposed: [SimulatedDay]
    let differing: [LocalDay]
    let words: PageWords
    let width = 720, height = 160, left = 30, right = 10, top = 6, bottom = 24

    func render() -> HTML {
        let days = (current + proposed).map(\.day)
        guard let first = days.min(), let last = days.max() else { return "" }
        let span = Double(max(1, first.days(to: last)))
        let plot = Double(width - left - right), tall = Double(height - top - bottom)
        func x(_ day: LocalDay) -> Double { Double(left) + Double(first.days(to: day)) / span * plot }
        let longest = Double(max(1, (current + proposed).map(\.streak.current).max() ?? 1))
        func line(_ series: [SimulatedDay], _ value: (SimulatedDay) -> Double, _ kind: String) -> HTML {
            let points = series.map { "\(YearChartSVG.format(x($0.day))),\(YearChartSVG.format(Double(top) + (1 - value($0)) * tall))" }.joined(separator: " ")
            return "<polyline class=\"\(kind)\" fill=\"none\" points=\"\(points)\"/>"
        }
        var parts: [HTML] = [Self.style]
        for level in [0.0, 0.5, 1.0] {
            let y = YearChartSVG.format(Double(top) + (1 - level) * tall)
            parts.append("<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(y)\" y2=\"\(y)\" stroke=\"currentColor\" stroke-opacity=\".2\"/>")
        }
        parts.append(line(current, { $0.score }, "current-score"))
        parts.append(line(proposed, { $0.score }, "proposed-score"))
        parts.append(line(current, { Double($0.streak.current) / longest }, "current-streak"))
        parts.append(line(proposed, { Double($0.streak.current) / longest }, "proposed-streak"))
        for day in differing {
            parts.append("<rect class=\"diff\" x=\"\(YearChartSVG.format(x(day) - 1))\" y=\"\(height - bottom + 3)\" width=\"2\" height=\"6\"><title>\(day.iso)</title></rect>")
        }
        parts.append("<text x=\"\(left)\" y=\"\(height - 3)\">\(first.iso)</text><text x=\"\(width - right - 60)\" y=\"\(height - 3)\">\(last.iso)</text>")
        let label = "\(words["Score"]) / \(words["streak"]): \(words["Now"]) — \(words["Proposed"]) - -"
        return "<svg class=\"lab\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(height)\" role=\"img\" aria-label=\"\(label)\">"
            + parts.joined() + "</svg>" + legend()
    }

    /// What each line and mark is, in words beside a sample of it (the chart's style, drawn small).
    func legend() -> HTML {
        let keys: [(kind: String, words: String, sample: HTML)] = [
            ("current-score", "\(words["Score"]) · \(words["Now"])", "<line class=\"current-score\" x1=\"0\" x2=\"24\" y1=\"5\" y2=\"5\"/>"),
            ("proposed-score", "\(words["Score"]) · \(words["Proposed"])", "<line class=\"proposed-score\" x1=\"0\" x2=\"24\" y1=\"5\" y2=\"5\"/>"),
            ("current-streak", "\(words["streak"]) · \(words["Now"])", "<line class=\"current-streak\" x1=\"0\" x2=\"24\" y1=\"5\" y2=\"5\"/>"),
            ("proposed-streak", "\(words["streak"]) · \(words["Proposed"])", "<line class=\"proposed-streak\" x1=\"0\" x2=\"24\" y1=\"5\" y2=\"5\"/>"),
            ("diff", words["Days that differ"], "<rect class=\"diff\" x=\"11\" y=\"2\" width=\"2\" height=\"6\"/>"),
        ]
        return "<ul class=\"legend\" data-legend=\"lab\">" + keys.map { key -> HTML in
            "<li data-key=\"\(key.kind)\"><svg class=\"lab-key\" viewBox=\"0 0 24 10\" width=\"24\" height=\"10\" aria-hidden=\"true\">\(Self.style)\(key.sample)</svg>\(key.words)</li>"
        }.joined() + "</ul>"
    }

    /// The lines' and marks' look, shared by the chart and its legend.
    static let style: HTML = "<style>.current-score{stroke:#2da44e;stroke-width:1.5}.proposed-score{stroke:#2da44e;stroke-width:1.5;stroke-dasharray:4 3}"
        + ".current-streak{stroke:#0969da;stroke-width:1.5}.proposed-streak{stroke:#0969da;stroke-width:1.5;stroke-dasharray:4 3}.diff{fill:#bf8700}</style>"
}
