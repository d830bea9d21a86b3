import StackDay

/// A habit's score (Loop Habit Tracker's strength, 0–100 %) as a line over a range of days, with
/// 0, 50 and 100 % guides and the last value printed at the end.
public struct ScoreLineSVG {
    public let name: String
    /// The score after each outcome day, oldest first (`HabitStatisticsCalculator.scores`).
    public let series: [(day: LocalDay, score: Double)]
    public let range: LocalDayRange
    let width = 560, height = 96, left = 34, right = 44, top = 6, bottom = 6

    public init(name: String, series: [(day: LocalDay, score: Double)], range: LocalDayRange) {
        self.name = name
        self.series = series.filter { range.contains($0.day) }
        self.range = range
    }

    public func render() -> String {
        let plotWidth = Double(width - left - right), plotHeight = Double(height - top - bottom)
        let span = Double(max(1, range.first.days(to: range.last)))
        func x(_ day: LocalDay) -> Double { Double(left) + Double(range.first.days(to: day)) / span * plotWidth }
        func y(_ score: Double) -> Double { Double(top) + (1 - min(1, max(0, score))) * plotHeight }
        var parts: [String] = ["<style>text{font:9px system-ui,sans-serif;fill:#57606a}</style>"]
        for level in [0.0, 0.5, 1.0] {
            let lineY = Self.format(y(level))
            parts.append("<line x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(lineY)\" y2=\"\(lineY)\" stroke=\"#d0d7de\" stroke-width=\"1\"/>")
            parts.append("<text x=\"0\" y=\"\(Self.format(y(level) + 3))\">\(Int(level * 100))%</text>")
        }
        if let last = series.last {
            let points = series.map { "\(Self.format(x($0.day))),\(Self.format(y($0.score)))" }.joined(separator: " ")
            parts.append("<polyline class=\"score\" fill=\"none\" stroke=\"#2da44e\" stroke-width=\"1.5\" points=\"\(points)\"/>")
            parts.append("<text class=\"last\" x=\"\(width - right + 4)\" y=\"\(Self.format(y(last.score) + 3))\">\(Int((last.score * 100).rounded()))%</text>")
        }
        let label = HTMLText.escape("\(name): score from \(range.first.iso) to \(range.last.iso)")
        return "<svg class=\"score-line\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(label)\">"
            + parts.joined() + "</svg>"
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
