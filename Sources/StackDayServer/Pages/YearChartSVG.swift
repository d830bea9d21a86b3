import StackDay
import StackDayApplication

/// A habit's (or a group's) year in one SVG: the heatmap (weeks as columns, the week's first day on top) and the score line
/// below it on the same time axis, month ticks under both; sized by its `viewBox`. On a phone it
/// keeps a legible size and scrolls sideways inside its own box, the latest weeks in view. Missed,
/// skipped and not-due days carry a glyph of their own (a cross, a dash, a dot), so they are
/// told apart without colour.
struct YearChartSVG {
    /// What the chart is of, for its label.
    let name: String
    /// A day's entry as a calendar draws it; nil where the chart has none.
    let entry: (LocalDay) -> HabitEntry?
    let scores: [(day: LocalDay, score: Double)]
    let range: LocalDayRange
    let words: PageWords
    /// The day the user's weeks begin on: the top row.
    var weekStart: WeekStart = .monday
    let cell = 11, gap = 2, left = 28, top = 4, scoreHeight = 60

    /// A habit's year from its timeline.
    init(timeline: HabitTimeline, scores: [(day: LocalDay, score: Double)], range: LocalDayRange, words: PageWords) {
        self.init(name: timeline.habit.name, entry: timeline.calendarEntry(on:), scores: scores, range: range, words: words)
    }

    /// A year of judged days (a group's), looked up by day.
    init(name: String, days: [HabitEntry], scores: [(day: LocalDay, score: Double)], range: LocalDayRange, words: PageWords) {
        let byDay = Dictionary(days.map { ($0.day, $0) }, uniquingKeysWith: { $1 })
        self.init(name: name, entry: { byDay[$0] }, scores: scores, range: range, words: words)
    }

    private init(name: String, entry: @escaping (LocalDay) -> HabitEntry?, scores: [(day: LocalDay, score: Double)], range: LocalDayRange, words: PageWords) {
        self.name = name
        self.entry = entry
        self.scores = scores
        self.range = range
        self.words = words
    }

    func render() -> HTML {
        let step = cell + gap
        let first = range.first.startOfWeek(weekStart)
        let weeks = first.days(to: range.last) / 7 + 1
        let width = left + weeks * step + 30
        let heatBottom = top + 7 * step
        let scoreTop = heatBottom + 10
        let axis = scoreTop + scoreHeight + 4
        var parts: [HTML] = []
        for (index, label) in words.weekdays(weekStart).enumerated() where index % 2 == 0 {
            parts.append("<text class=\"weekday\" x=\"0\" y=\"\(top + index * step + 9)\">\(label)</text>")
        }
        for offset in 0...first.days(to: range.last) {
            let day = first.adding(days: offset)
            guard range.contains(day), let entry = entry(day) else { continue }
            let mark = DayMark(entry)
            parts.append("<rect class=\"day\" data-day=\"\(day.iso)\" data-state=\"\(mark.rawValue)\" x=\"\(left + (offset / 7) * step)\" y=\"\(top + (offset % 7) * step)\" "
                + "width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(DayMarkStyle.heat(entry))\"><title>\(day.iso): \(Quantity.describe(entry.total)) (\(words.mark(mark)))</title></rect>")
            if let glyph = Self.glyph(mark, x: left + (offset / 7) * step, y: top + (offset % 7) * step, size: cell) { parts.append(glyph) }
        }
        // The score line, x by day on the same axis as the weeks above: each day inside its week's
        // column, the week's first day at its left edge, its last at its right.
        func x(_ day: LocalDay) -> Double {
            let offset = first.days(to: day)
            return Double(left + (offset / 7) * step) + Double(offset % 7) / 6 * Double(cell)
        }
        func y(_ score: Double) -> Double { Double(scoreTop) + (1 - min(1, max(0, score))) * Double(scoreHeight) }
        for level in [0.0, 0.5, 1.0] {
            let lineY = Self.format(y(level))
            parts.append("<line x1=\"\(left)\" x2=\"\(left + weeks * step)\" y1=\"\(lineY)\" y2=\"\(lineY)\" stroke=\"currentColor\" stroke-opacity=\".2\"/>")
            parts.append("<text x=\"0\" y=\"\(Self.format(y(level) + 3))\">\(Int(level * 100))%</text>")
        }
        let shown = scores.filter { range.contains($0.day) }
        if let last = shown.last {
            let points = shown.map { "\(Self.format(x($0.day))),\(Self.format(y($0.score)))" }.joined(separator: " ")
            parts.append("<polyline class=\"score\" fill=\"none\" stroke=\"#2da44e\" stroke-width=\"1.5\" points=\"\(points)\"/>")
            parts.append("<text class=\"last\" x=\"\(Self.format(x(last.day) + 4))\" y=\"\(Self.format(y(last.score) + 3))\">\(Int((last.score * 100).rounded()))%</text>")
        }
        // Month ticks under both.
        for week in 0..<weeks {
            let monday = first.adding(days: week * 7)
            guard monday.day <= 7 else { continue }
            let tickX = left + week * step
            parts.append("<line x1=\"\(tickX)\" x2=\"\(tickX)\" y1=\"\(top)\" y2=\"\(axis)\" stroke=\"currentColor\" stroke-opacity=\".15\"/>")
            parts.append("<text class=\"month\" x=\"\(tickX + 1)\" y=\"\(axis + 10)\">\(words.language == .ko ? "\(monday.month)월" : String(PageWords.monthNames[monday.month - 1].prefix(3)) as String)</text>")
        }
        let label = "\(name): \(words["Last year"]) \(range.first.iso) – \(range.last.iso)"
        let legend = [DayMark.missed, .skipped, .notDue].map { mark -> HTML in
            "<li><svg class=\"glyph-key\" viewBox=\"0 0 \(cell) \(cell)\" aria-hidden=\"true\"><rect width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"none\" stroke=\"currentColor\" stroke-opacity=\".3\"/>"
                + (Self.glyph(mark, x: 0, y: 0, size: cell) ?? "") + "</svg>\(words.mark(mark))</li>"
        }.joined()
        // Scrolled from the right (`dir="rtl"` on the box), so the latest weeks show first.
        return "<div class=\"year-box\" dir=\"rtl\" tabindex=\"0\" role=\"region\" aria-label=\"\(label)\"><svg class=\"year\" dir=\"ltr\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 \(width) \(axis + 14)\" role=\"img\" aria-label=\"\(label)\">"
            + parts.joined() + "</svg></div><ul class=\"legend year-legend\" aria-label=\"\(words["Legend"])\">\(legend)</ul>"
    }

    /// The glyph over a day's cell that says its state without colour: a cross for missed, a dash
    /// for skipped, a dot for a day not due; nil for the others (their fill says enough).
    static func glyph(_ mark: DayMark, x: Int, y: Int, size: Int) -> HTML? {
        let (low, high, middle) = (Double(x) + 3, Double(x + size) - 3, Double(x) + Double(size) / 2)
        let (top, bottom, centre) = (Double(y) + 3, Double(y + size) - 3, Double(y) + Double(size) / 2)
        let stroke: HTML = "stroke=\"currentColor\" stroke-width=\"1.3\" stroke-linecap=\"round\""
        switch mark {
        case .missed:
            return "<path class=\"glyph\" data-glyph=\"missed\" d=\"M\(format(low)) \(format(top))L\(format(high)) \(format(bottom))M\(format(high)) \(format(top))L\(format(low)) \(format(bottom))\" \(stroke)/>"
        case .skipped:
            return "<path class=\"glyph\" data-glyph=\"skipped\" d=\"M\(format(low)) \(format(centre))L\(format(high)) \(format(centre))\" \(stroke)/>"
        case .notDue:
            return "<circle class=\"glyph\" data-glyph=\"notDue\" cx=\"\(format(middle))\" cy=\"\(format(centre))\" r=\"1.3\" fill=\"currentColor\"/>"
        case .met, .partial, .pending, .future:
            return nil
        }
    }

    static func format(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
