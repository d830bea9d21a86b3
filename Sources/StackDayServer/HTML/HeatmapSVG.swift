import StackDay

/// A year heatmap as SVG: weeks as columns (Monday on top), month labels above the first week of
/// each month, Mon/Wed/Fri labels at the left, and a Less…More legend; each day's cell says its
/// total and state on hover.
public struct HeatmapSVG {
    public static let shades = ["#ebedf0", "#9be9a8", "#40c463", "#30a14e", "#216e39"]
    static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    let cell = 11, gap = 2, left = 30, top = 16

    public let timeline: HabitTimeline
    public let range: LocalDayRange

    public init(timeline: HabitTimeline, range: LocalDayRange) {
        self.timeline = timeline
        self.range = range
    }

    public func render() -> String {
        let step = cell + gap
        let first = range.first.startOfWeek
        let weeks = first.days(to: range.last) / 7 + 1
        var parts: [String] = []
        for week in 0..<weeks {
            let monday = first.adding(days: week * 7)
            if monday.day <= 7 {
                parts.append("<text class=\"month\" x=\"\(left + week * step)\" y=\"10\">\(Self.monthNames[monday.month - 1])</text>")
            }
        }
        for (index, label) in ["Mon", "", "Wed", "", "Fri", "", ""].enumerated() where !label.isEmpty {
            parts.append("<text class=\"weekday\" x=\"0\" y=\"\(top + index * step + 9)\">\(label)</text>")
        }
        let unit = timeline.habit.unit
        for offset in 0...first.days(to: range.last) {
            let day = first.adding(days: offset)
            guard range.contains(day), let entry = timeline.entry(on: day) else { continue }
            let total = unit.isEmpty ? Quantity.describe(entry.total) : "\(Quantity.describe(entry.total)) \(unit)"
            parts.append("<rect class=\"day\" data-day=\"\(day.iso)\" data-state=\"\(entry.state.rawValue)\" x=\"\(left + (offset / 7) * step)\" "
                + "y=\"\(top + (day.weekday - 1) * step)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(Self.shades[HeatLevel.of(entry)])\">"
                + "<title>\(HTMLText.escape("\(day.iso): \(total) (\(entry.state.rawValue))"))</title></rect>")
        }
        let legendY = top + 7 * step + 6
        let legendX = left + max(0, weeks * step - 5 * step - 70)
        parts.append("<text class=\"legend\" x=\"\(legendX)\" y=\"\(legendY + 9)\">Less</text>")
        for (index, shade) in Self.shades.enumerated() {
            parts.append("<rect x=\"\(legendX + 30 + index * step)\" y=\"\(legendY)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(shade)\"/>")
        }
        parts.append("<text class=\"legend\" x=\"\(legendX + 36 + 5 * step)\" y=\"\(legendY + 9)\">More</text>")
        let width = left + weeks * step
        let height = legendY + cell + 2
        let label = HTMLText.escape("\(timeline.habit.name): days from \(range.first.iso) to \(range.last.iso)")
        return "<svg class=\"heatmap\" xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(height)\" role=\"img\" aria-label=\"\(label)\">"
            + "<style>text{font:9px system-ui,sans-serif;fill:#57606a}</style>" + parts.joined() + "</svg>"
    }
}
