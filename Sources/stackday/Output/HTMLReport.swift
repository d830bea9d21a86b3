import StackDay

/// A self-contained HTML page (no network): the weekly report and an SVG heatmap per habit.
struct HTMLReport {
    let title: String
    let weekText: String
    let range: LocalDayRange
    /// One per habit: its timeline, or the failure shown in its place.
    let heatmaps: [Result<HabitTimeline, HabitFailure>]

    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            case "'": output += "&#39;"
            default: output.append(character)
            }
        }
        return output
    }

    static let shades = ["#ebedf0", "#9be9a8", "#40c463", "#30a14e", "#216e39"]

    func heatmap(_ timeline: HabitTimeline) -> String {
        let cell = 11, gap = 2
        let first = range.first.startOfWeek
        let weeks = first.days(to: range.last) / 7 + 1
        var rects = ""
        for offset in 0...first.days(to: range.last) {
            let day = first.adding(days: offset)
            guard range.contains(day), let entry = timeline.entry(on: day) else { continue }
            let level = HeatLevel.of(entry)
            let x = (offset / 7) * (cell + gap) + 30
            let y = (day.weekday - 1) * (cell + gap)
            let label = "\(day.iso): \(Format.quantity(entry.total, unit: timeline.habit.unit)) (\(entry.state.rawValue))"
            rects += "<rect x=\"\(x)\" y=\"\(y)\" width=\"\(cell)\" height=\"\(cell)\" rx=\"2\" fill=\"\(Self.shades[level])\"><title>\(Self.escape(label))</title></rect>"
        }
        let labels = ["Mon", "", "Wed", "", "Fri", "", "Sun"].enumerated().map { index, text in
            "<text x=\"0\" y=\"\(index * (cell + gap) + 9)\" font-size=\"9\" fill=\"#57606a\">\(text)</text>"
        }.joined()
        let width = weeks * (cell + gap) + 30
        return "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(width)\" height=\"\(7 * (cell + gap))\" role=\"img\">\(labels)\(rects)</svg>"
    }

    func render() -> String {
        var body = "<h1>\(Self.escape(title))</h1>\n<pre>\(Self.escape(weekText))</pre>\n"
        for heatmap in heatmaps {
            switch heatmap {
            case .success(let timeline):
                body += "<section><h2>\(Self.escape(timeline.habit.name))</h2>\n\(self.heatmap(timeline))</section>\n"
            case .failure(let failure):
                body += "<section><h2>\(Self.escape(failure.habit.name))</h2>\n<p class=\"error\">\(Self.escape(failure.message))</p></section>\n"
            }
        }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>\(Self.escape(title))</title>
        <style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2328}pre{font-size:14px;background:#f6f8fa;padding:1rem;border-radius:6px}h2{font-size:1rem;margin:1.5rem 0 .5rem}.error{color:#cf222e}</style>
        </head><body>
        \(body)</body></html>
        """
    }
}
